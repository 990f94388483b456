// Queries for sign-in sessions and their rotating refresh tokens.
import { and, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { firstRow, type Db } from "../db/client";
import { refreshTokens, sessions } from "./tables";

/** A session ends this long after sign-in, however active it is. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A session ends after this long without a refresh (an hour-long access token refreshes well inside it). */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

/** SQL condition: the session is within its absolute and its idle lifetime at `nowMs`. */
export function sessionAlive(nowMs = Date.now()) {
  return and(
    gt(sessions.createdAt, new Date(nowMs - SESSION_MAX_AGE_MS).toISOString()),
    gt(sql`coalesce(${sessions.refreshedAt}, ${sessions.createdAt})`, new Date(nowMs - SESSION_IDLE_MS).toISOString()),
  );
}

/** The same rule for a session row already read. */
export function sessionExpired(s: { createdAt: string; refreshedAt: string | null }, nowMs = Date.now()): boolean {
  return Date.parse(s.createdAt) <= nowMs - SESSION_MAX_AGE_MS || Date.parse(s.refreshedAt ?? s.createdAt) <= nowMs - SESSION_IDLE_MS;
}

export async function findSession(db: Db, sessionId: string) {
  return firstRow(db, sessions, eq(sessions.id, sessionId));
}

/** Uses a recovery session's one password change without the current password; true when it was still there. */
export async function consumePasswordReset(db: Db, sessionId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ passwordResetAt: null })
    .where(and(eq(sessions.id, sessionId), isNotNull(sessions.passwordResetAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

export async function createSession(
  db: Db,
  input: {
    userId: string;
    refreshTokenHash: string;
    userAgent?: string | null;
    ip?: string | null;
    passwordReset?: boolean;
    authMethod?: "password" | "recovery" | "otp";
  },
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db.batch([
    db.insert(sessions).values({
      id,
      userId: input.userId,
      createdAt: now,
      authMethod: input.authMethod ?? "password",
      userAgent: input.userAgent ?? null,
      ip: input.ip ?? null,
      passwordResetAt: input.passwordReset ? now : null,
    }),
    db.insert(refreshTokens).values({
      id: crypto.randomUUID(),
      tokenHash: input.refreshTokenHash,
      sessionId: id,
      userId: input.userId,
      createdAt: now,
    }),
  ]);
  return { id, createdAt: now, authMethod: input.authMethod ?? "password", mfaVerifiedAt: null };
}

/** A new refresh token in an existing session (after a TOTP code raised it to aal2, GoTrue hands out new tokens). */
export async function addRefreshToken(db: Db, input: { sessionId: string; userId: string; refreshTokenHash: string }) {
  await db.insert(refreshTokens).values({
    id: crypto.randomUUID(),
    tokenHash: input.refreshTokenHash,
    sessionId: input.sessionId,
    userId: input.userId,
  });
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  return firstRow(db, refreshTokens, eq(refreshTokens.tokenHash, tokenHash));
}

/**
 * Rotates `parent` into `child` in one batch. The child insert is idempotent (its value is derived
 * from the parent), so two concurrent rotations of the same token both end with the same child.
 */
export async function rotateRefreshToken(
  db: Db,
  parent: { tokenHash: string; sessionId: string; userId: string },
  childHash: string,
) {
  const now = new Date().toISOString();
  await db.batch([
    db
      .insert(refreshTokens)
      .values({
        id: crypto.randomUUID(),
        tokenHash: childHash,
        sessionId: parent.sessionId,
        userId: parent.userId,
        parentHash: parent.tokenHash,
        createdAt: now,
      })
      .onConflictDoNothing({ target: refreshTokens.tokenHash }),
    db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.tokenHash, parent.tokenHash), isNull(refreshTokens.revokedAt))),
    db.update(sessions).set({ refreshedAt: now }).where(eq(sessions.id, parent.sessionId)),
  ]);
}

/** Deleting a session cascades to its refresh tokens; its access tokens fail the session check. */
export async function deleteSession(db: Db, sessionId: string) {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteSessionsOfUser(db: Db, userId: string, exceptSessionId?: string) {
  await db
    .delete(sessions)
    .where(exceptSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)) : eq(sessions.userId, userId));
}

