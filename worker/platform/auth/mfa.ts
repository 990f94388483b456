// Queries for TOTP factors and their challenges (GoTrue's factors and challenges).
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { firstRow, type Db } from "../db/client";
import { mfaChallenges, mfaFactors, mfaRecoveryCodes, sessions } from "./tables";

export type FactorRow = typeof mfaFactors.$inferSelect;

/** A challenge can be verified this long after it was made (GoTrue's default). */
export const CHALLENGE_TTL_SECONDS = 300;

export async function listFactors(db: Db, userId: string) {
  return db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).orderBy(mfaFactors.createdAt);
}

export async function findFactor(db: Db, userId: string, factorId: string) {
  return firstRow(db, mfaFactors, and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId)));
}

/** Stores a new unverified factor; the user's earlier unverified ones (abandoned enrolments) go. */
export async function createFactor(db: Db, row: { id: string; userId: string; friendlyName: string | null; secretCiphertext: string }) {
  const now = new Date().toISOString();
  await db.batch([
    db.delete(mfaFactors).where(and(eq(mfaFactors.userId, row.userId), eq(mfaFactors.status, "unverified"))),
    db.insert(mfaFactors).values({ ...row, factorType: "totp", status: "unverified", createdAt: now, updatedAt: now }),
  ]);
  return (await firstRow(db, mfaFactors, eq(mfaFactors.id, row.id)))!;
}

/** Removes a factor; with the last verified one gone, the recovery codes go too (they recover nothing then). */
export async function deleteFactor(db: Db, userId: string, factorId: string) {
  const noneLeft = sql`not exists (select 1 from ${mfaFactors} where ${mfaFactors.userId} = ${userId} and ${mfaFactors.status} = 'verified')`;
  await db.batch([
    db.delete(mfaFactors).where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId))),
    db.delete(mfaRecoveryCodes).where(and(eq(mfaRecoveryCodes.userId, userId), noneLeft)),
  ]);
}

export async function createChallenge(db: Db, factorId: string, sessionId: string) {
  const id = crypto.randomUUID();
  const createdAt = new Date().toISOString();
  await db.insert(mfaChallenges).values({ id, factorId, sessionId, createdAt });
  return { id, createdAt };
}

export async function findChallenge(db: Db, factorId: string, challengeId: string) {
  return firstRow(db, mfaChallenges, and(eq(mfaChallenges.id, challengeId), eq(mfaChallenges.factorId, factorId)));
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
    db.update(sessions).set({ mfaVerifiedAt: now, mfaMethod: "totp" }).where(eq(sessions.id, sessionId)),
  ]);
  return true;
}

// ---- recovery codes ----

/** A new set replaces the old one whole: codes of an earlier set stop working at once. */
export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[]) {
  const now = new Date().toISOString();
  await db.batch([
    db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId)),
    db.insert(mfaRecoveryCodes).values(hashes.map((codeHash) => ({ id: crypto.randomUUID(), userId, codeHash, createdAt: now }))),
  ]);
  return now;
}

/** How many codes the user's set has, how many are still unused, and when it was made (null: no set). */
export async function recoveryCodeStatus(db: Db, userId: string) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`,
      remaining: sql<number>`coalesce(sum(case when ${mfaRecoveryCodes.usedAt} is null then 1 else 0 end), 0)`,
      createdAt: sql<string | null>`max(${mfaRecoveryCodes.createdAt})`,
    })
    .from(mfaRecoveryCodes)
    .where(eq(mfaRecoveryCodes.userId, userId));
  return { total: row?.total ?? 0, remaining: row?.remaining ?? 0, createdAt: row?.createdAt ?? null };
}

/**
 * Spends a code and raises the session to aal2 in one batch: the code only when it is still unused (compare-and-set,
 * so two requests with one code never both pass), the session only when the code was spent by this batch.
 */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, sessionId: string): Promise<boolean> {
  const now = new Date().toISOString();
  const [spent] = await db.batch([
    db
      .update(mfaRecoveryCodes)
      .set({ usedAt: now, usedBySession: sessionId })
      .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
      .returning({ id: mfaRecoveryCodes.id }),
    db
      .update(sessions)
      .set({ mfaVerifiedAt: now, mfaMethod: "recovery_code" })
      .where(
        and(
          eq(sessions.id, sessionId),
          eq(sessions.userId, userId),
          sql`exists (select 1 from ${mfaRecoveryCodes} where ${mfaRecoveryCodes.userId} = ${userId} and ${mfaRecoveryCodes.codeHash} = ${codeHash} and ${mfaRecoveryCodes.usedAt} = ${now} and ${mfaRecoveryCodes.usedBySession} = ${sessionId})`,
        ),
      ),
  ]);
  return spent.length > 0;
}

/** True when the user has at least one verified factor. */
export async function hasVerifiedFactor(db: Db, userId: string): Promise<boolean> {
  return (await db.$count(mfaFactors, and(eq(mfaFactors.userId, userId), eq(mfaFactors.status, "verified")))) > 0;
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
