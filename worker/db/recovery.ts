// One-time password-recovery tokens, stored hashed, valid for an hour.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "./client";
import { recoveryTokens } from "./schema";

export const RECOVERY_TTL_MS = 60 * 60 * 1000;

export async function saveRecoveryToken(db: Db, userId: string, tokenHash: string, nowMs = Date.now()) {
  await db.insert(recoveryTokens).values({
    tokenHash,
    userId,
    expiresAt: new Date(nowMs + RECOVERY_TTL_MS).toISOString(),
  });
}

/** Marks the token used and returns its user, or null when unknown, used or expired. */
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
  return rows[0]?.userId ?? null;
}
