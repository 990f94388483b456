// Deleting an account: every row that is the user's, in one batch (prospects and reports they made stay with the agency,
// unowned), gated by the last-admin rule in the same transaction.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../platform/db/client";
import { emailConfirmations, mfaFactors, mfaRecoveryCodes, profiles, recoveryTokens, refreshTokens, sessions, users } from "../../platform/auth/tables";
import { outbox } from "../../platform/mail/tables";
import { aiBudgets, aiUsageDaily, aiUsageLogs } from "../../platform/metering/tables";
import { webhookEndpoints } from "../../platform/notifications/tables";
import { subscriptions } from "../billing/tables";
import { generatedPosts, contentItems } from "../content/tables";
import { gbpConnections, oauthStates } from "../integrations/tables";
import { widgetLeads, widgets } from "../widgets/tables";

/** True when `userId` is an admin and no other admin exists (the early answer; the delete itself re-checks). */
export async function isLastAdmin(db: Db, userId: string): Promise<boolean> {
  const admins = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.isAdmin, true)).limit(2);
  return admins.length === 1 && admins[0]!.id === userId;
}

/** The ids of the widgets the user owns (their logos live under `logos/<widget id>/`). */
export async function ownedWidgetIds(db: Db, userId: string): Promise<string[]> {
  return (await db.select({ id: widgets.id }).from(widgets).where(eq(widgets.ownerId, userId))).map((r) => r.id);
}

/** What a paused endpoint of a deleted admin says on Integrations. */
export const ENDPOINT_OWNER_DELETED = "Paused: the admin who added this endpoint deleted their account. Check where it sends lead data, then resume or delete it.";

/**
 * Removes the user and their data, or nothing when they are the last admin: the first statement deletes the profile
 * only if the user is not an admin or another admin remains, and every later one runs only when it did. D1 runs a batch
 * as one transaction, one at a time, so two admins deleting at once can never both pass (issue 26). The foreign keys
 * would cascade most of it on D1; the rows are deleted explicitly so libSQL without foreign-key enforcement ends the
 * same. Mail to their address (past links) goes too. The webhook endpoints they added belong to the agency: they are
 * paused, not deleted, so lead data stops leaving until another admin looks at them. True when the account is gone.
 */
export async function deleteAccountRows(db: Db, user: { id: string; email: string }, now = new Date()): Promise<boolean> {
  const id = user.id;
  const anotherAdmin = sql`exists (select 1 from ${profiles} other where other.is_admin = 1 and other.id <> ${id})`;
  const gone = sql`not exists (select 1 from ${profiles} where ${profiles.id} = ${id})`;
  const mine = (column: AnySQLiteColumn) => and(eq(column, id), gone);
  const at = now.toISOString();
  const results = await db.batch([
    db.delete(profiles).where(and(eq(profiles.id, id), or(eq(profiles.isAdmin, false), anotherAdmin))),
    db
      .update(webhookEndpoints)
      .set({ status: "paused", pausedAt: at, updatedAt: at, lastError: ENDPOINT_OWNER_DELETED })
      .where(and(mine(webhookEndpoints.userId), eq(webhookEndpoints.status, "active"))),
    db.delete(refreshTokens).where(mine(refreshTokens.userId)),
    db.delete(sessions).where(mine(sessions.userId)),
    db.delete(mfaRecoveryCodes).where(mine(mfaRecoveryCodes.userId)),
    db.delete(mfaFactors).where(mine(mfaFactors.userId)),
    db.delete(recoveryTokens).where(mine(recoveryTokens.userId)),
    db.delete(emailConfirmations).where(mine(emailConfirmations.userId)),
    db.delete(generatedPosts).where(mine(generatedPosts.userId)),
    db.delete(contentItems).where(mine(contentItems.userId)),
    db.delete(aiBudgets).where(mine(aiBudgets.userId)),
    db.delete(aiUsageLogs).where(mine(aiUsageLogs.userId)),
    db.delete(aiUsageDaily).where(mine(aiUsageDaily.userKey)),
    db.delete(subscriptions).where(mine(subscriptions.userId)),
    db.delete(gbpConnections).where(mine(gbpConnections.userId)),
    db.delete(oauthStates).where(mine(oauthStates.userId)),
    db.delete(widgetLeads).where(and(sql`${widgetLeads.widgetId} in (select ${widgets.id} from ${widgets} where ${widgets.ownerId} = ${id})`, gone)),
    db.delete(widgets).where(mine(widgets.ownerId)),
    db.delete(outbox).where(and(inArray(outbox.toEmail, [user.email]), gone)),
    db.delete(users).where(mine(users.id)).returning({ id: users.id }),
  ]);
  return (results[results.length - 1] as { id: string }[]).length > 0;
}
