// /api/account: deleting one's own account (password required): the user's rows, their stored files in R2, and every session.
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import { signInAttempt, signInSucceeded } from "../auth/limits";
import { DUMMY_HASH, verifyPassword } from "../auth/password";
import { clientIp } from "../auth/session";
import type { AppEnv } from "../context";
import { deleteAccountRows, isLastAdmin } from "../db/account";
import { getDb } from "../db/client";
import { findUserById } from "../db/users";
import { DELETE_ACCOUNT_LAST_ADMIN, DeleteAccountInput } from "../domain/account";
import type { Env } from "../env";
import { apiError, ErrorCode } from "../errors";
import { log } from "../log";
import { validate } from "../validate";

/** Every R2 object under the user's own prefixes (logos, including any a failed replace left behind). */
async function deleteUserFiles(env: Env, userId: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await env.FILES.list({ prefix: `logos/${userId}/`, cursor });
    if (page.objects.length) {
      await env.FILES.delete(page.objects.map((o) => o.key));
      deleted += page.objects.length;
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
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
    if (caller.isAdmin && (await isLastAdmin(db, caller.id))) {
      return apiError(c, 409, ErrorCode.conflict, DELETE_ACCOUNT_LAST_ADMIN);
    }
    // Files first: if R2 fails the account is still there to try again, never rows gone and files orphaned.
    const files = await deleteUserFiles(c.env, caller.id);
    await deleteAccountRows(db, { id: caller.id, email: caller.email });
    log.info("account deleted", { files });
    return c.body(null, 204);
  });
