// Deleting an account: every row that is the user's, in one batch (prospects and reports they made stay with the agency, unowned).
import { eq, inArray } from "drizzle-orm";
import type { Db } from "./client";
import {
  aiBudgets,
  aiUsageDaily,
  aiUsageLogs,
  emailConfirmations,
  generatedPosts,
  contentItems,
  mfaFactors,
  outbox,
  profiles,
  recoveryTokens,
  refreshTokens,
  sessions,
  subscriptions,
  users,
} from "./schema";

/** True when `userId` is an admin and no other admin exists. */
export async function isLastAdmin(db: Db, userId: string): Promise<boolean> {
  const admins = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.isAdmin, true)).limit(2);
  return admins.length === 1 && admins[0]!.id === userId;
}

/**
 * Removes the user and their data. The foreign keys would cascade most of it on D1; the rows are
 * deleted explicitly so libSQL without foreign-key enforcement ends the same. Mail to their
 * address (past links) goes too.
 */
export async function deleteAccountRows(db: Db, user: { id: string; email: string }) {
  const id = user.id;
  await db.batch([
    db.delete(refreshTokens).where(eq(refreshTokens.userId, id)),
    db.delete(sessions).where(eq(sessions.userId, id)),
    db.delete(mfaFactors).where(eq(mfaFactors.userId, id)),
    db.delete(recoveryTokens).where(eq(recoveryTokens.userId, id)),
    db.delete(emailConfirmations).where(eq(emailConfirmations.userId, id)),
    db.delete(generatedPosts).where(eq(generatedPosts.userId, id)),
    db.delete(contentItems).where(eq(contentItems.userId, id)),
    db.delete(aiBudgets).where(eq(aiBudgets.userId, id)),
    db.delete(aiUsageLogs).where(eq(aiUsageLogs.userId, id)),
    db.delete(aiUsageDaily).where(eq(aiUsageDaily.userKey, id)),
    db.delete(subscriptions).where(eq(subscriptions.userId, id)),
    db.delete(outbox).where(inArray(outbox.toEmail, [user.email])),
    db.delete(profiles).where(eq(profiles.id, id)),
    db.delete(users).where(eq(users.id, id)),
  ]);
}
