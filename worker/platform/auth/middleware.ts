// API guards: who is calling (bearer token + live session), admin from the database, read-only view-as.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { AuditAction, recordAudit } from "./admin-queries";
import { getDb } from "../db/client";
import { getProfile, loadAuthContext } from "./users";
import { apiError, ErrorCode } from "../errors";
import { bearerToken } from "./bearer";
import { verifyAccessToken } from "./tokens";
import type { Env } from "../env";
import type { Caller } from "../context";

/** REQUIRE_ADMIN_MFA: "true"/"false" when set; unset or empty means on in production, off in development. */
export function adminMfaRequired(env: Env): boolean {
  const v = (env.REQUIRE_ADMIN_MFA ?? "").trim().toLowerCase();
  if (["true", "1", "on", "yes"].includes(v)) return true;
  if (["false", "0", "off", "no"].includes(v)) return false;
  return env.ENVIRONMENT !== "development";
}

export const MFA_REQUIRED_MESSAGE = "Enter the 6-digit code from your authenticator app to continue.";
export const ADMIN_MFA_MESSAGE =
  "Admin pages need two-factor sign-in. Set up an authenticator app on your Account page, then sign in with its code.";

/** An admin may act as one only from an aal2 session when REQUIRE_ADMIN_MFA is on. */
export function adminMfaMissing(env: Env, caller: Caller): boolean {
  return caller.isAdmin && adminMfaRequired(env) && !caller.aal2;
}

export const VIEW_AS_HEADER = "X-View-As";
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Requires a valid access token whose session still exists, and resolves the request's subject:
 * the caller, or — for an admin sending X-View-As — the viewed user, read-only.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) return apiError(c, 401, ErrorCode.unauthorized, "You must be signed in.");
  const verified = await verifyAccessToken(c.env, token);
  if (!verified.ok) {
    return apiError(
      c,
      401,
      ErrorCode.unauthorized,
      verified.reason === "expired" ? "Your session has expired. Please sign in again." : "Invalid access token.",
    );
  }
  const db = getDb(c.env);
  const caller = await loadAuthContext(db, verified.claims.sub, verified.claims.session_id);
  if (!caller) return apiError(c, 401, ErrorCode.unauthorized, "Your session has ended. Please sign in again.");
  // A password alone is not enough for an account with two-factor sign-in: the code comes first.
  if (caller.hasVerifiedFactor && !caller.aal2) return apiError(c, 403, ErrorCode.mfaRequired, MFA_REQUIRED_MESSAGE);
  c.set("caller", { ...caller, sessionId: verified.claims.session_id });

  const viewAs = c.req.header(VIEW_AS_HEADER)?.trim();
  if (viewAs) {
    if (!caller.isAdmin) {
      return apiError(c, 403, ErrorCode.adminRequired, "Only administrators can view the product as another user.");
    }
    if (adminMfaMissing(c.env, c.get("caller"))) return apiError(c, 403, ErrorCode.mfaRequired, ADMIN_MFA_MESSAGE);
    if (viewAs === caller.id) {
      return apiError(c, 400, ErrorCode.validation, "You cannot view the product as yourself.");
    }
    // Every request made as someone else is on the record, not only the start of the view.
    const readOnly = READ_METHODS.has(c.req.method);
    const audited = recordAudit(db, {
      actorId: caller.id,
      action: AuditAction.viewAsRequest,
      targetId: viewAs.slice(0, 100),
      detail: { method: c.req.method, path: new URL(c.req.url).pathname, ...(readOnly ? {} : { refused: true }) },
    });
    if (!readOnly) {
      await audited;
      return apiError(
        c,
        403,
        ErrorCode.viewAsReadOnly,
        "You are viewing as another user: this view is read-only. Return to your admin account to make changes.",
      );
    }
    const [target] = await Promise.all([getProfile(db, viewAs), audited]);
    if (!target) return apiError(c, 404, ErrorCode.notFound, "The user you are viewing as no longer exists.");
    c.set("subject", {
      id: target.id,
      email: target.email ?? "",
      isAdmin: target.isAdmin,
      companyName: target.companyName,
      profile: target,
    });
    c.set("viewingAs", true);
  } else {
    c.set("subject", {
      id: caller.id,
      email: caller.email,
      isAdmin: caller.isAdmin,
      companyName: caller.companyName,
      profile: caller.profile,
    });
    c.set("viewingAs", false);
  }
  await next();
});

/**
 * Admin routes: the subject must be an admin according to the profile row read in this request.
 * While viewing as a regular user, admin routes answer as they would to that user.
 */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const refused = adminRefusal(c);
  if (refused) return refused;
  await next();
});

/**
 * The admin guard for a route that is admin-only for part of its input (a prospect's scan, keyword or audit): the
 * same two rules as requireAdmin, the admin flag and REQUIRE_ADMIN_MFA's aal2. Null when the caller may act as admin.
 */
export function adminRefusal(c: Context<AppEnv>, notAdminMessage = "You need administrator privileges to access this page.") {
  if (!c.get("subject").isAdmin) return apiError(c, 403, ErrorCode.adminRequired, notAdminMessage);
  if (adminMfaMissing(c.env, c.get("caller"))) return apiError(c, 403, ErrorCode.mfaRequired, ADMIN_MFA_MESSAGE);
  return null;
}

/** True when the request may use admin powers: an admin subject, and an aal2 session where REQUIRE_ADMIN_MFA asks it. */
export function actsAsAdmin(c: Context<AppEnv>): boolean {
  return c.get("subject").isAdmin && !adminMfaMissing(c.env, c.get("caller"));
}
