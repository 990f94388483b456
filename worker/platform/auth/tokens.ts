// Access tokens (HS256 JWTs, algorithm pinned) and opaque refresh tokens (stored only as hashes).
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Env } from "../env";
import { HttpError } from "../errors";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const JWT_ISSUER = "porchlight/auth/v1";
export const JWT_AUDIENCE = "authenticated";

export type Aal = "aal1" | "aal2";

/** GoTrue's `amr` claim: how the session proved who it is, newest first. */
export interface AmrEntry {
  /** `recovery` is a recovery link (GoTrue's); `recovery_code` a one-time two-factor recovery code (ours). */
  method: "password" | "recovery" | "otp" | "totp" | "recovery_code";
  timestamp: number;
}

export interface Assurance {
  aal: Aal;
  amr: AmrEntry[];
}

export interface AccessClaims {
  sub: string;
  email: string;
  session_id: string;
  role: "authenticated";
  aal: Aal;
  amr?: AmrEntry[];
  iat: number;
  exp: number;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The session's assurance: aal2 once a TOTP code (or a one-time recovery code) was verified in it, else aal1; amr
 * lists both steps.
 */
export function assuranceOf(session: { authMethod: string; createdAt: string; mfaVerifiedAt: string | null; mfaMethod?: string | null }): Assurance {
  const first: AmrEntry = { method: session.authMethod as AmrEntry["method"], timestamp: seconds(session.createdAt) };
  const second: AmrEntry["method"] = session.mfaMethod === "recovery_code" ? "recovery_code" : "totp";
  return session.mfaVerifiedAt
    ? { aal: "aal2", amr: [{ method: second, timestamp: seconds(session.mfaVerifiedAt) }, first] }
    : { aal: "aal1", amr: [first] };
}

const enc = new TextEncoder();

export function jwtKey(env: Env): Uint8Array {
  const secret = env.JWT_SECRET;
  if (!secret || secret.length < 32) {
    throw new HttpError(
      500,
      "server_misconfigured",
      "JWT_SECRET is not set (or shorter than 32 characters). Set it with `wrangler secret put JWT_SECRET`.",
    );
  }
  return enc.encode(secret);
}

export async function signAccessToken(
  env: Env,
  user: { id: string; email: string },
  sessionId: string,
  assurance: Assurance,
  now = Math.floor(Date.now() / 1000),
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = now + ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({
    email: user.email,
    session_id: sessionId,
    role: "authenticated",
    aal: assurance.aal,
    amr: assurance.amr,
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.id)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(jwtKey(env));
  return { token, expiresAt };
}

export type VerifyFailure = "expired" | "invalid";

/** The imported HMAC key, kept per isolate so each request skips the import. */
let cachedKey: { secret: string; key: Promise<CryptoKey> } | null = null;
function verifyKey(env: Env): Promise<CryptoKey> {
  const raw = jwtKey(env);
  if (cachedKey === null || cachedKey.secret !== env.JWT_SECRET) {
    cachedKey = {
      secret: env.JWT_SECRET!,
      key: crypto.subtle.importKey("raw", raw as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]),
    };
  }
  return cachedKey.key;
}

export async function verifyAccessToken(
  env: Env,
  token: string,
): Promise<{ ok: true; claims: AccessClaims } | { ok: false; reason: VerifyFailure }> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(env), {
      algorithms: ["HS256"],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ["sub", "exp", "session_id"],
    });
    if (typeof payload.session_id !== "string" || typeof payload.sub !== "string") {
      return { ok: false, reason: "invalid" };
    }
    return { ok: true, claims: payload as unknown as AccessClaims };
  } catch (e) {
    if (e instanceof HttpError) throw e;
    if (e instanceof joseErrors.JWTExpired) return { ok: false, reason: "expired" };
    return { ok: false, reason: "invalid" };
  }
}

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function newOpaqueToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", enc.encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The child of a refresh token is derived from it (HMAC with the server secret). Two tabs that
 * refresh with the same token at once therefore receive the same child, and the server never
 * needs to keep a token in plain text to hand it out again.
 */
export async function childRefreshToken(env: Env, parent: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", jwtKey(env) as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, enc.encode(`refresh-child:${parent}`));
  return base64url(new Uint8Array(mac));
}
