// Queries for sign-in sessions and their rotating refresh tokens.
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "./client";
import { refreshTokens, sessions } from "./schema";

export async function createSession(
  db: Db,
  input: { userId: string; refreshTokenHash: string; userAgent?: string | null; ip?: string | null },
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db.batch([
    db.insert(sessions).values({
      id,
      userId: input.userId,
      createdAt: now,
      userAgent: input.userAgent ?? null,
      ip: input.ip ?? null,
    }),
    db.insert(refreshTokens).values({
      id: crypto.randomUUID(),
      tokenHash: input.refreshTokenHash,
      sessionId: id,
      userId: input.userId,
      createdAt: now,
    }),
  ]);
  return id;
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  return db.query.refreshTokens.findFirst({ where: eq(refreshTokens.tokenHash, tokenHash) });
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

