// Sessions of the auth service: issuing one at sign-in, and resolving an /auth/v1 bearer token to its user.
import type { Context } from "hono";
import type { AppEnv } from "../context";
import type { Db } from "../db/client";
import { listFactors } from "./mfa";
import { createSession } from "./sessions";
import { findUserById, loadAuthContext, updateUser, type UserRow } from "./users";
import { bearerToken } from "./bearer";
import { authError, sessionJson } from "./gotrue";
import { ACCESS_TOKEN_TTL_SECONDS, assuranceOf, newOpaqueToken, sha256Hex, signAccessToken, verifyAccessToken } from "./tokens";

/**
 * The client's address for rate limits and the meter; an IPv6 address counts as its /64, which one client usually
 * holds whole. In production only Cloudflare's CF-Connecting-IP is trusted; X-Real-IP (a client can send anything)
 * only in development.
 */
export function clientIp(c: Context) {
  const development = (c.env as { ENVIRONMENT?: string } | undefined)?.ENVIRONMENT === "development";
  const header = c.req.header("CF-Connecting-IP") ?? (development ? c.req.header("X-Real-IP") : undefined);
  return rateLimitAddress(header?.trim() || "unknown");
}

export function rateLimitAddress(ip: string): string {
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/**
 * Starts a session for the user: a new refresh-token family, an access token, last_sign_in_at;
 * `passwordReset` for a recovery link, `emailLink` for a confirmation link. It starts at aal1: a user
 * with a verified factor verifies a code (POST /factors/:id/verify) to reach aal2.
 */
export async function issueSession(
  c: Context<AppEnv>,
  db: Db,
  user: UserRow,
  opts: { passwordReset?: boolean; emailLink?: boolean } = {},
) {
  const refresh = newOpaqueToken();
  const [session, factors] = await Promise.all([
    createSession(db, {
      userId: user.id,
      refreshTokenHash: await sha256Hex(refresh),
      userAgent: c.req.header("User-Agent")?.slice(0, 300),
      ip: clientIp(c),
      passwordReset: opts.passwordReset,
      authMethod: opts.passwordReset ? "recovery" : opts.emailLink ? "otp" : "password",
    }),
    listFactors(db, user.id),
  ]);
  const now = new Date().toISOString();
  await updateUser(db, user.id, { lastSignInAt: now });
  const access = await signAccessToken(c.env, user, session.id, assuranceOf(session));
  return sessionJson({ ...user, lastSignInAt: now }, access, refresh, ACCESS_TOKEN_TTL_SECONDS, factors);
}

/** Resolves the bearer token of an /auth/v1 request to its user and session, GoTrue-style errors. */
export async function bearerUser(c: Context<AppEnv>, db: Db) {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) return { error: authError(c, 401, "no_authorization", "This endpoint requires a Bearer token") };
  const verified = await verifyAccessToken(c.env, token);
  if (!verified.ok) {
    return {
      error: authError(
        c,
        403,
        "bad_jwt",
        verified.reason === "expired" ? "invalid JWT: token is expired" : "invalid JWT: unable to parse or verify signature",
      ),
    };
  }
  const ctx = await loadAuthContext(db, verified.claims.sub, verified.claims.session_id);
  if (!ctx) {
    return { error: authError(c, 403, "session_not_found", "Session from session_id claim in JWT does not exist") };
  }
  const user = await findUserById(db, ctx.id);
  if (!user) return { error: authError(c, 403, "user_not_found", "User from sub claim in JWT does not exist") };
  return { user, sessionId: verified.claims.session_id, context: ctx };
}
