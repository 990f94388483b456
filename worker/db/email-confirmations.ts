// One-time email-confirmation links (hashed, a day long): what turns an ADMIN_EMAILS sign-up into an admin.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "./client";
import { emailConfirmations, profiles, users } from "./schema";

export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

export async function saveEmailConfirmation(db: Db, userId: string, email: string, tokenHash: string, nowMs = Date.now()) {
  await db.insert(emailConfirmations).values({
    tokenHash,
    userId,
    email,
    expiresAt: new Date(nowMs + CONFIRMATION_TTL_MS).toISOString(),
  });
}

/**
 * Uses the link once: marks the user's address confirmed (when it is still the address the link
 * went to) and, when `grantAdmin` says that address is listed, makes the profile admin.
 * Returns the user id, or null when the link is unknown, used, expired or for an old address.
 */
export async function confirmEmail(db: Db, tokenHash: string, grantAdmin: (email: string) => boolean, nowMs = Date.now()) {
  const now = new Date(nowMs).toISOString();
  const used = await db
    .update(emailConfirmations)
    .set({ usedAt: now })
    .where(and(eq(emailConfirmations.tokenHash, tokenHash), isNull(emailConfirmations.usedAt), gt(emailConfirmations.expiresAt, now)))
    .returning({ userId: emailConfirmations.userId, email: emailConfirmations.email });
  const row = used[0];
  if (!row) return null;
  const confirmed = await db
    .update(users)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(users.id, row.userId), eq(users.email, row.email)))
    .returning({ id: users.id });
  if (!confirmed[0]) return null;
  if (grantAdmin(row.email)) {
    await db.update(profiles).set({ isAdmin: true, updatedAt: now }).where(eq(profiles.id, row.userId));
  }
  return row.userId;
}
