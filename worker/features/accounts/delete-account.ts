// Deleting one's own account (password required): the Google grant revoked at Google, the user's and their widgets'
// files in R2, then every row that is the user's in one batch (prospects and reports they made stay with the agency,
// unowned), gated by the last-admin rule in the same transaction.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../platform/db/client";
import type { Env } from "../../platform/env";
import { ErrorCode, type FieldErrors } from "../../platform/errors";
import { log } from "../../platform/log";
import { signInAttempt, signInSucceeded } from "../../platform/auth/limits";
import { DUMMY_HASH, verifyPassword } from "../../platform/auth/password";
import { findUserById } from "../../platform/auth/users";
import { revokeGrant } from "../integrations";
import { DELETE_ACCOUNT_LAST_ADMIN } from "./rules/account";
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

/** Every R2 object under the given prefixes: the user's logos and their widgets' (including any a failed replace left). */
async function deleteFiles(env: Env, prefixes: string[]): Promise<number> {
  let deleted = 0;
  for (const prefix of prefixes) {
    let cursor: string | undefined;
    do {
      const page = await env.FILES.list({ prefix, cursor });
      if (page.objects.length) {
        await env.FILES.delete(page.objects.map((o) => o.key));
        deleted += page.objects.length;
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return deleted;
}

type DeleteRefusal = { status: 400 | 409 | 429; code: string; message: string; fields?: FieldErrors };
const LAST_ADMIN: { ok: false; refusal: DeleteRefusal } = { ok: false, refusal: { status: 409, code: ErrorCode.conflict, message: DELETE_ACCOUNT_LAST_ADMIN } };

/** The caller's account gone, once their password checks out (counted like a sign-in) and they are not the last admin. */
export async function deleteOwnAccount(
  env: Env,
  db: Db,
  caller: { id: string; email: string; isAdmin: boolean },
  password: string,
  ip: string,
): Promise<{ ok: true } | { ok: false; refusal: DeleteRefusal }> {
  const user = await findUserById(db, caller.id);
  // Counted like a sign-in: a stolen access token cannot guess the password here faster.
  const limited = await signInAttempt(db, caller.email, ip);
  if (limited) return { ok: false, refusal: { status: 429, code: ErrorCode.rateLimited, message: "Too many attempts. Please wait a few minutes and try again." } };
  if (!(await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH)) || !user) {
    return { ok: false, refusal: { status: 400, code: "invalid_credentials", message: "The password is incorrect.", fields: { password: ["The password is incorrect."] } } };
  }
  await signInSucceeded(db, caller.email, ip);
  // The early answer; the delete below checks again in the same statement that deletes (two admins at once).
  if (caller.isAdmin && (await isLastAdmin(db, caller.id))) return LAST_ADMIN;
  // Outside first, rows last: if Google or R2 fails the account is still there to try again, never rows gone and a
  // grant left at Google or public files orphaned. The Google grant is revoked there, not only forgotten here.
  const google = await revokeGrant(env, db, caller.id, "Google did not answer, so your account was kept. Try again in a minute.");
  const widgetIds = await ownedWidgetIds(db, caller.id);
  const files = await deleteFiles(env, [caller.id, ...widgetIds].map((id) => `logos/${id}/`));
  if (!(await deleteAccountRows(db, { id: caller.id, email: caller.email }))) return LAST_ADMIN;
  log.info("account deleted", { files, widgets: widgetIds.length, googleRevoked: google });
  return { ok: true };
}
