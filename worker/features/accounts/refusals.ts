// What the accounts services refuse with, and how the GoTrue routes answer it: GoTrue's error body, or its 429 with
// Retry-After when a rate limit was passed.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AuthContext, UserRow } from "../../platform/auth/users";
import { authError } from "../../platform/auth/gotrue";
import { tooManyAttempts } from "../../platform/auth/limits";
import type { Limit } from "../../platform/db/rate-limits";

export type AuthRefusal = { status: ContentfulStatusCode; code: string; message: string; extra?: Record<string, unknown> } | { limit: Limit };

/** The signed-in caller of an /auth/v1 route, as `bearerUser` resolves it. */
export type BearerCaller = { user: UserRow; sessionId: string; context: AuthContext };

export type Refused = { ok: false; refusal: AuthRefusal };

export function refused(status: ContentfulStatusCode, code: string, message: string, extra?: Record<string, unknown>): Refused {
  return { ok: false, refusal: { status, code, message, extra } };
}

export function rateLimited(limit: Limit): Refused {
  return { ok: false, refusal: { limit } };
}

export function authRefusal(c: Context, refusal: AuthRefusal) {
  if ("limit" in refusal) return tooManyAttempts(c, refusal.limit);
  return authError(c, refusal.status, refusal.code, refusal.message, refusal.extra);
}
