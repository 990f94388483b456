// Queries for users and their profiles.
import { and, eq, sql } from "drizzle-orm";
import { firstRow, type Db } from "../db/client";
import { mfaFactors, profiles, sessions, users } from "./tables";
import { sessionAlive } from "./sessions";

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string) {
  return firstRow(db, users, eq(users.email, normalizeEmail(email)));
}

export async function findUserById(db: Db, id: string) {
  return firstRow(db, users, eq(users.id, id));
}

/** Creates the user and their profile row together (one D1 batch, so never one without the other). */
export async function createUserWithProfile(
  db: Db,
  input: { email: string; passwordHash: string; userMetadata: Record<string, unknown>; isAdmin: boolean },
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const email = normalizeEmail(input.email);
  await db.batch([
    db.insert(users).values({
      id,
      email,
      passwordHash: input.passwordHash,
      userMetadata: JSON.stringify(input.userMetadata),
      // Confirmed only by the emailed link (worker/platform/auth/email-confirmations.ts).
      emailConfirmedAt: null,
      createdAt: now,
      updatedAt: now,
    }),
    db.insert(profiles).values({ id, email, isAdmin: input.isAdmin, createdAt: now, updatedAt: now }),
  ]);
  return (await findUserById(db, id))!;
}

export async function updateUser(
  db: Db,
  id: string,
  patch: Partial<Pick<UserRow, "email" | "passwordHash" | "userMetadata" | "lastSignInAt" | "emailConfirmedAt">>,
) {
  const now = new Date().toISOString();
  const stmts = [db.update(users).set({ ...patch, updatedAt: now }).where(eq(users.id, id))] as const;
  if (patch.email) {
    await db.batch([
      stmts[0],
      db.update(profiles).set({ email: patch.email, updatedAt: now }).where(eq(profiles.id, id)),
    ]);
  } else {
    await stmts[0];
  }
}

export async function getProfile(db: Db, id: string) {
  return firstRow(db, profiles, eq(profiles.id, id));
}

/**
 * Everything a request needs to know about its caller, read in one query: the session must still
 * exist (logout makes tokens unusable at once) and admin status comes from the database.
 */
export async function loadAuthContext(db: Db, userId: string, sessionId: string) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      emailConfirmedAt: users.emailConfirmedAt,
      profile: profiles,
      session: { authMethod: sessions.authMethod, createdAt: sessions.createdAt, mfaVerifiedAt: sessions.mfaVerifiedAt },
      hasFactor: sql<number>`exists(select 1 from ${mfaFactors} where ${mfaFactors.userId} = ${users.id} and ${mfaFactors.status} = 'verified')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), sessionAlive()))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    /** Null until the address is confirmed by its emailed link. */
    emailConfirmedAt: row.emailConfirmedAt,
    isAdmin: Boolean(row.profile?.isAdmin),
    companyName: row.profile?.companyName ?? null,
    /** The caller's whole profile row, read in the same query (null only if it was never made). */
    profile: row.profile,
    /** The session's assurance: aal2 once a TOTP code was verified in it. */
    aal2: row.session.mfaVerifiedAt !== null,
    /** The user has a verified TOTP factor: their sessions must reach aal2. */
    hasVerifiedFactor: Boolean(row.hasFactor),
    session: row.session,
  };
}
export type AuthContext = NonNullable<Awaited<ReturnType<typeof loadAuthContext>>>;
