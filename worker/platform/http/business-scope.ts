// The permission shared by the tools that work on "own" or a prospect (citations, AI Visibility): a prospect is an
// admin's (admin status from the database, and a verified second factor where it is required).
import type { Context } from "hono";
import { adminMfaMissing } from "./middleware";
import type { AppEnv } from "../context";
import { apiError, ErrorCode } from "../errors";

/** The refusal for a caller who may not `what` a prospect, or null when they may. */
export function adminOnly(c: Context<AppEnv>, what: string) {
  if (!c.get("subject").isAdmin) return apiError(c, 403, ErrorCode.adminRequired, `You need administrator privileges to ${what} a prospect.`);
  if (adminMfaMissing(c.env, c.get("caller"))) return apiError(c, 403, ErrorCode.mfaRequired, "Verify your two-factor code to continue.");
  return null;
}
