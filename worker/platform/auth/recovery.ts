// One-time password-recovery tokens, stored hashed, valid for an hour.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { recoveryTokens } from "./tables";

export const RECOVERY_TTL_MS = 60 * 60 * 1000;

export async function saveRecoveryToken(db: Db, userId: string, tokenHash: string, nowMs = Date.now()) {
  await db.insert(recoveryTokens).values({
    tokenHash,
    userId,
    expiresAt: new Date(nowMs + RECOVERY_TTL_MS).toISOString(),
  });
}

/** Marks the token used, revokes the user's other open recovery links, and returns its user (null when unknown, used or expired). */
export async function consumeRecoveryToken(db: Db, tokenHash: string, nowMs = Date.now()) {
  const rows = await db
    .update(recoveryTokens)
    .set({ usedAt: new Date(nowMs).toISOString() })
    .where(
      and(
        eq(recoveryTokens.tokenHash, tokenHash),
        isNull(recoveryTokens.usedAt),
        gt(recoveryTokens.expiresAt, new Date(nowMs).toISOString()),
      ),
    )
    .returning({ userId: recoveryTokens.userId });
  const userId = rows[0]?.userId ?? null;
  if (userId) {
    await db
      .update(recoveryTokens)
      .set({ usedAt: new Date(nowMs).toISOString() })
      .where(and(eq(recoveryTokens.userId, userId), isNull(recoveryTokens.usedAt)));
  }
  return userId;
}
