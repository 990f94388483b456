// GoTrue wire format: error bodies, the user object and the session object auth-js expects.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FactorRow } from "./mfa";
import type { UserRow } from "./users";
import { currentRequestId } from "../log";

export const API_VERSION_HEADER = "X-Supabase-Api-Version";

/**
 * GoTrue's error body; `{code, message}` (string code) for clients that send an API version. Like the
 * API's errors it names its request (`request_id`), so a user's report finds the log lines.
 */
export function authError(
  c: Context,
  status: ContentfulStatusCode,
  errorCode: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  const requestId: string | undefined = c.get("requestId") ?? currentRequestId();
  const id = requestId ? { request_id: requestId } : {};
  const version = c.req.header(API_VERSION_HEADER);
  if (version) {
    c.header(API_VERSION_HEADER, version);
    return c.json({ code: errorCode, message, msg: message, ...extra, ...id }, status);
  }
  return c.json({ code: status, error_code: errorCode, msg: message, ...extra, ...id }, status);
}

export function echoApiVersion(c: Context) {
  const version = c.req.header(API_VERSION_HEADER);
  if (version) c.header(API_VERSION_HEADER, version);
}

/** GoTrue's factor object (in `user.factors`, and the answer of enroll without the secret). */
export function factorJson(f: FactorRow) {
  return {
    id: f.id,
    friendly_name: f.friendlyName ?? "",
    factor_type: f.factorType,
    status: f.status,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  };
}

/** The user object; `factors` are the user's TOTP factors (auth-js reads them for the assurance level). */
export function userJson(u: UserRow, factors: FactorRow[] = []) {
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(u.userMetadata) as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  return {
    id: u.id,
    aud: "authenticated",
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.emailConfirmedAt,
    phone: "",
    confirmed_at: u.emailConfirmedAt,
    last_sign_in_at: u.lastSignInAt,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: metadata,
    identities: [
      {
        identity_id: u.id,
        id: u.id,
        user_id: u.id,
        identity_data: { email: u.email, email_verified: true, sub: u.id },
        provider: "email",
        last_sign_in_at: u.lastSignInAt,
        created_at: u.createdAt,
        updated_at: u.updatedAt,
        email: u.email,
      },
    ],
    ...(factors.length ? { factors: factors.map(factorJson) } : {}),
    created_at: u.createdAt,
    updated_at: u.updatedAt,
    is_anonymous: false,
  };
}

export function sessionJson(
  u: UserRow,
  access: { token: string; expiresAt: number },
  refreshToken: string,
  expiresIn: number,
  factors: FactorRow[] = [],
) {
  return {
    access_token: access.token,
    token_type: "bearer",
    expires_in: expiresIn,
    expires_at: access.expiresAt,
    refresh_token: refreshToken,
    user: userJson(u, factors),
  };
}

/** Fields a client may never set about itself through user_metadata. */
const PROTECTED_METADATA = ["is_admin", "isAdmin", "admin", "role", "roles"];
export function cleanMetadata(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== "object" || Array.isArray(data)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if (!PROTECTED_METADATA.includes(k)) out[k] = v;
  }
  return out;
}
