// /api/account: deleting one's own account (password required): the Google grant revoked at Google, the user's and their
// widgets' files in R2, their rows and every session; the webhook endpoints they added paused.
import { Hono } from "hono";
import { requireUser } from "../../platform/auth/middleware";
import { signInAttempt, signInSucceeded } from "../../platform/auth/limits";
import { DUMMY_HASH, verifyPassword } from "../../platform/auth/password";
import { clientIp } from "../../platform/auth/session";
import type { AppEnv } from "../../platform/context";
import { deleteAccountRows, isLastAdmin, ownedWidgetIds } from "./delete-account";
import { getDb } from "../../platform/db/client";
import { findUserById } from "../../platform/auth/users";
import { revokeGrant } from "../integrations";
import { DELETE_ACCOUNT_LAST_ADMIN, DeleteAccountInput } from "./rules/account";
import type { Env } from "../../platform/env";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { validate } from "../../platform/validate";

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

export const accountRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .delete("/", validate("json", DeleteAccountInput), async (c) => {
    const db = getDb(c.env);
    const caller = c.get("caller");
    const user = await findUserById(db, caller.id);
    const ip = clientIp(c);
    // Counted like a sign-in: a stolen access token cannot guess the password here faster.
    const limited = await signInAttempt(db, caller.email, ip);
    if (limited) return apiError(c, 429, ErrorCode.rateLimited, "Too many attempts. Please wait a few minutes and try again.");
    if (!(await verifyPassword(c.req.valid("json").password, user?.passwordHash ?? DUMMY_HASH)) || !user) {
      return apiError(c, 400, "invalid_credentials", "The password is incorrect.", { password: ["The password is incorrect."] });
    }
    await signInSucceeded(db, caller.email, ip);
    // The early answer; the delete below checks again in the same statement that deletes (two admins at once).
    if (caller.isAdmin && (await isLastAdmin(db, caller.id))) {
      return apiError(c, 409, ErrorCode.conflict, DELETE_ACCOUNT_LAST_ADMIN);
    }
    // Outside first, rows last: if Google or R2 fails the account is still there to try again, never rows gone and a
    // grant left at Google or public files orphaned. The Google grant is revoked there, not only forgotten here.
    const google = await revokeGrant(c.env, db, caller.id, "Google did not answer, so your account was kept. Try again in a minute.");
    const widgetIds = await ownedWidgetIds(db, caller.id);
    const files = await deleteFiles(c.env, [caller.id, ...widgetIds].map((id) => `logos/${id}/`));
    if (!(await deleteAccountRows(db, { id: caller.id, email: caller.email }))) {
      return apiError(c, 409, ErrorCode.conflict, DELETE_ACCOUNT_LAST_ADMIN);
    }
    log.info("account deleted", { files, widgets: widgetIds.length, googleRevoked: google });
    return c.body(null, 204);
  });
