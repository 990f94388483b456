// Queries for TOTP factors and their challenges (GoTrue's factors and challenges).
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "./client";
import { mfaChallenges, mfaFactors, sessions } from "./schema";

export type FactorRow = typeof mfaFactors.$inferSelect;

/** A challenge can be verified this long after it was made (GoTrue's default). */
export const CHALLENGE_TTL_SECONDS = 300;

export async function listFactors(db: Db, userId: string) {
  return db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).orderBy(mfaFactors.createdAt);
}

export async function findFactor(db: Db, userId: string, factorId: string) {
  return db.query.mfaFactors.findFirst({ where: and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId)) });
}

/** Stores a new unverified factor; the user's earlier unverified ones (abandoned enrolments) go. */
export async function createFactor(db: Db, row: { id: string; userId: string; friendlyName: string | null; secretCiphertext: string }) {
  const now = new Date().toISOString();
  await db.batch([
    db.delete(mfaFactors).where(and(eq(mfaFactors.userId, row.userId), eq(mfaFactors.status, "unverified"))),
    db.insert(mfaFactors).values({ ...row, factorType: "totp", status: "unverified", createdAt: now, updatedAt: now }),
  ]);
  return (await db.query.mfaFactors.findFirst({ where: eq(mfaFactors.id, row.id) }))!;
}

export async function deleteFactor(db: Db, userId: string, factorId: string) {
  await db.delete(mfaFactors).where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId)));
}

export async function createChallenge(db: Db, factorId: string, sessionId: string) {
  const id = crypto.randomUUID();
  const createdAt = new Date().toISOString();
  await db.insert(mfaChallenges).values({ id, factorId, sessionId, createdAt });
  return { id, createdAt };
}

export async function findChallenge(db: Db, factorId: string, challengeId: string) {
  return db.query.mfaChallenges.findFirst({ where: and(eq(mfaChallenges.id, challengeId), eq(mfaChallenges.factorId, factorId)) });
}

/**
 * Accepts a code's time step for the factor: only when it is later than the last step accepted
 * (compare-and-set), so the same code — or an older one — never works twice, even at once.
 */
export async function useFactorStep(db: Db, factorId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(mfaFactors)
    .set({ lastUsedStep: step, updatedAt: new Date().toISOString() })
    .where(and(eq(mfaFactors.id, factorId), or(isNull(mfaFactors.lastUsedStep), lt(mfaFactors.lastUsedStep, step))))
    .returning({ id: mfaFactors.id });
  return rows.length > 0;
}

/** After a good code: the challenge is spent, the factor verified, and the session is aal2 from now on. */
export async function completeChallenge(db: Db, challengeId: string, factorId: string, sessionId: string) {
  const now = new Date().toISOString();
  const spent = await db
    .update(mfaChallenges)
    .set({ verifiedAt: now })
    .where(and(eq(mfaChallenges.id, challengeId), isNull(mfaChallenges.verifiedAt)))
    .returning({ id: mfaChallenges.id });
  if (!spent[0]) return false;
  await db.batch([
    db.update(mfaFactors).set({ status: "verified", updatedAt: now }).where(eq(mfaFactors.id, factorId)),
    db.update(sessions).set({ mfaVerifiedAt: now }).where(eq(sessions.id, sessionId)),
  ]);
  return true;
}

/** True when the user has at least one verified factor. */
export async function hasVerifiedFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(mfaFactors)
    .where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.status, "verified")));
  return (row[0]?.n ?? 0) > 0;
}

/** Expired challenges of the factor are of no use: making a new one clears them. */
export async function deleteStaleChallenges(db: Db, factorId: string, nowMs = Date.now()) {
  await db
    .delete(mfaChallenges)
    .where(and(eq(mfaChallenges.factorId, factorId), lt(mfaChallenges.createdAt, new Date(nowMs - CHALLENGE_TTL_SECONDS * 1000).toISOString())));
}

export function challengeExpired(c: { createdAt: string }, nowMs = Date.now()): boolean {
  return Date.parse(c.createdAt) + CHALLENGE_TTL_SECONDS * 1000 <= nowMs;
}
