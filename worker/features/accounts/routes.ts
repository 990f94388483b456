// /api/account: deleting one's own account (password required): the Google grant revoked at Google, the user's and their
// widgets' files in R2, their rows and every session; the webhook endpoints they added paused.
import { Hono } from "hono";
import { requireUser } from "../../platform/auth/middleware";
import { clientIp } from "../../platform/auth/session";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { refusalResponse } from "../../platform/http/paid-run";
import { validate } from "../../platform/validate";
import { deleteOwnAccount } from "./delete-account";
import { DeleteAccountInput } from "./rules/account";

export const accountRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .delete("/", validate("json", DeleteAccountInput), async (c) => {
    const deleted = await deleteOwnAccount(c.env, getDb(c.env), c.get("caller"), c.req.valid("json").password, clientIp(c));
    return deleted.ok ? c.body(null, 204) : refusalResponse(c, deleted.refusal);
  });
