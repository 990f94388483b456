// Connecting Google Business Profile: the OAuth start (state + PKCE kept server-side, bound to the starting browser by
// an HttpOnly nonce cookie whose hash is stored with the state), the callback (state and browser checked, code
// exchanged, locations listed), tokens sealed at rest and refreshed before they expire, and disconnecting.
import { constantTimeEqual } from "../../platform/auth/password";
import type { Db } from "../../platform/db/client";
import {
  deleteConnection,
  findConnection,
  insertOauthState,
  markNeedsReconnect,
  parseLocations,
  recordConnectionError,
  saveAccessToken,
  takeOauthState,
  upsertConnection,
  type GbpConnectionRow,
} from "./queries";
import { encryptionConfigured, encryptionUnavailableMessage, ENCRYPTION_KEY_MISSING, openSecret, sealSecret } from "../../platform/crypto/secret-box";
import { GOOGLE_ERROR_MESSAGES, GOOGLE_NOT_CONFIGURED_MESSAGE, type IntegrationsResponse } from "../content/rules/gbp-schedule";
import type { Env } from "../../platform/env";
import { ErrorCode, HttpError } from "../../platform/errors";
import { log } from "../../platform/log";
import { appOrigin } from "../../platform/origin";
import {
  authorizeUrl,
  exchangeCode,
  GoogleError,
  googleConfig,
  listLocations,
  pkceChallenge,
  refreshAccessToken,
  revokeToken,
  type GoogleConfig,
} from "../../platform/providers/google";

/** How long a started sign-in at Google stays valid. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** Access tokens are refreshed this long before Google's expiry. */
export const REFRESH_MARGIN_MS = 2 * 60_000;
export const CALLBACK_PATH = "/api/integrations/google/callback";
/**
 * The starting browser's nonce (issue 26): HttpOnly, SameSite=Lax (sent on Google's top-level redirect back, not on
 * cross-site subrequests), scoped to the callback's path, as long-lived as a state. Without it, a consent link
 * started by one account and opened by someone else would land that person's Google tokens on the starter's account.
 */
export const BROWSER_COOKIE = "porchlight_google_connect";

export function newBrowserNonce(): string {
  return randomToken();
}

function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  let s = "";
  for (const b of raw) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function requireConfig(env: Env): GoogleConfig {
  const config = googleConfig(env);
  if (!config) throw new HttpError(501, ErrorCode.notConfigured, GOOGLE_NOT_CONFIGURED_MESSAGE);
  if (!encryptionConfigured(env)) {
    log.error("gbp: connection refused", { reason: ENCRYPTION_KEY_MISSING });
    throw new HttpError(503, "server_misconfigured", encryptionUnavailableMessage("Connecting Google"));
  }
  return config;
}

export async function integrationsStatus(env: Env, db: Db, userId: string): Promise<IntegrationsResponse> {
  const row = await findConnection(db, userId);
  const configured = googleConfig(env) !== null;
  const error = row?.lastErrorCode ? { code: row.lastErrorCode, message: row.lastError ?? GOOGLE_ERROR_MESSAGES[row.lastErrorCode] ?? "Google refused." } : null;
  // A row without tokens only remembers Google's refusal (the APIs not enabled …): not connected, with that error.
  const status = !configured ? "not_configured" : !row?.refreshTokenCiphertext ? "not_connected" : row.status;
  return {
    google: {
      status,
      canConnect: configured && encryptionConfigured(env),
      locations: row ? parseLocations(row.chosenLocations) : [],
      available: row ? parseLocations(row.availableLocations) : [],
      lastSyncAt: row?.lastSyncAt ?? null,
      error,
    },
  };
}

/**
 * Starts a sign-in at Google: the state, the PKCE verifier and the hash of the browser's nonce (its cookie, set by the
 * route) stay here; the browser gets the URL to open.
 */
export async function startConnect(env: Env, db: Db, userId: string, requestUrl: string, browserNonce: string): Promise<string> {
  const config = requireConfig(env);
  const state = randomToken();
  const verifier = randomToken(48);
  const redirectUri = `${appOrigin(env, requestUrl)}${CALLBACK_PATH}`;
  await insertOauthState(db, {
    id: await sha256(state),
    userId,
    codeVerifier: verifier,
    redirectUri,
    browserHash: await sha256(browserNonce),
    expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_MS).toISOString(),
  });
  return authorizeUrl(config, { redirectUri, state, codeChallenge: await pkceChallenge(verifier) });
}

/** Whether the callback's browser holds the nonce the state was started with. */
async function sameBrowser(storedHash: string | null, nonce: string | null | undefined): Promise<boolean> {
  if (!storedHash || !nonce) return false;
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(await sha256(nonce)), enc.encode(storedHash));
}

/**
 * Google's redirect back: the state must be one we issued (unexpired, used once) and the browser the one that started
 * it (its nonce cookie); then the code is exchanged with the verifier and the locations listed. Returns where to send
 * the browser (the Integrations page, with the outcome).
 */
export async function finishConnect(env: Env, db: Db, q: { state?: string; code?: string; error?: string; browserNonce?: string | null }): Promise<string> {
  const page = (params: Record<string, string>) => `/integrations?${new URLSearchParams(params).toString()}`;
  const config = googleConfig(env);
  if (!config || !encryptionConfigured(env)) return page({ error: "not_configured" });
  const stored = q.state ? await takeOauthState(db, await sha256(q.state)) : null;
  if (!stored || Date.parse(stored.expiresAt) < Date.now()) return page({ error: "state_mismatch" });
  // Another browser (someone sent the consent link on): nothing is exchanged, the state is spent.
  if (!(await sameBrowser(stored.browserHash, q.browserNonce))) {
    log.warn("google connect: the callback came to a browser that did not start it", { userId: stored.userId });
    return page({ error: "other_browser" });
  }
  if (q.error || !q.code) return page({ error: q.error === "access_denied" ? "access_denied" : "refused" });
  const userId = stored.userId;
  try {
    const tokens = await exchangeCode(config, { code: q.code, codeVerifier: stored.codeVerifier, redirectUri: stored.redirectUri });
    if (!tokens.refreshToken) throw new GoogleError("refused", "Google sent no refresh token");
    let available;
    try {
      available = await listLocations(config, tokens.accessToken);
    } catch (error) {
      // The grant is of no use if the APIs refuse; give it back rather than keep it.
      await revokeToken(config, tokens.refreshToken).catch(() => undefined);
      throw error;
    }
    const existing = await findConnection(db, userId);
    const id = existing?.id ?? crypto.randomUUID();
    const postable = available.filter((l) => l.canOperateLocalPost);
    const kept = existing ? parseLocations(existing.chosenLocations).filter((c) => postable.some((p) => p.name === c.name)) : [];
    const chosen = kept.length ? postable.filter((p) => kept.some((k) => k.name === p.name)) : postable.length === 1 ? postable : null;
    await upsertConnection(db, userId, id, {
      accessTokenCiphertext: await sealSecret(env, "google-token", `${id}:access`, tokens.accessToken),
      refreshTokenCiphertext: await sealSecret(env, "google-token", `${id}:refresh`, tokens.refreshToken),
      accessExpiresAt: tokens.expiresAt,
      availableLocations: available,
      chosen,
    });
    if (postable.length === 0) return page({ error: "no_locations" });
    return page(chosen ? { connected: "1" } : { step: "locations" });
  } catch (error) {
    if (!(error instanceof GoogleError)) throw error;
    log.warn("google connect refused", { kind: error.kind, status: error.status });
    // At the code exchange, invalid_grant means this sign-in failed (a bad code or verifier), not a lost connection.
    const code = error.kind === "token_refused" ? "refused" : error.kind;
    const message = code === "refused" || code === "unavailable" ? `${GOOGLE_ERROR_MESSAGES[code]} (${error.message})` : GOOGLE_ERROR_MESSAGES[code]!;
    if (code === "api_not_enabled" || code === "not_approved") await recordConnectionError(db, userId, code, message);
    return page({ error: code });
  }
}

/**
 * Runs `fn` with a valid access token: refreshed before it expires, and once more if Google refuses it. A refused
 * refresh (invalid_grant) marks the connection as needing a reconnect and throws token_refused.
 */
export async function withAccessToken<T>(env: Env, db: Db, connection: GbpConnectionRow, fn: (accessToken: string) => Promise<T>): Promise<T> {
  const config = googleConfig(env);
  if (!config) throw new GoogleError("refused", GOOGLE_NOT_CONFIGURED_MESSAGE);
  if (connection.status === "needs_reconnect" || !connection.refreshTokenCiphertext) throw new GoogleError("token_refused", GOOGLE_ERROR_MESSAGES.token_refused!);
  const refresh = async () => {
    const refreshToken = await openSecret(env, "google-token", `${connection.id}:refresh`, connection.refreshTokenCiphertext!);
    try {
      const tokens = await refreshAccessToken(config, refreshToken);
      await saveAccessToken(db, connection.id, await sealSecret(env, "google-token", `${connection.id}:access`, tokens.accessToken), tokens.expiresAt);
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof GoogleError && error.kind === "token_refused") await markNeedsReconnect(db, connection.id, "token_refused", GOOGLE_ERROR_MESSAGES.token_refused!);
      throw error;
    }
  };
  const fresh = connection.accessTokenCiphertext && connection.accessExpiresAt && Date.parse(connection.accessExpiresAt) - REFRESH_MARGIN_MS > Date.now();
  let token = fresh ? await openSecret(env, "google-token", `${connection.id}:access`, connection.accessTokenCiphertext!) : await refresh();
  try {
    return await fn(token);
  } catch (error) {
    if (!(error instanceof GoogleError) || error.kind !== "token_refused" || !fresh) throw error;
    token = await refresh();
    try {
      return await fn(token);
    } catch (again) {
      if (again instanceof GoogleError && again.kind === "token_refused") await markNeedsReconnect(db, connection.id, "token_refused", GOOGLE_ERROR_MESSAGES.token_refused!);
      throw again;
    }
  }
}

/**
 * Revokes the user's grant at Google (the refresh token, which ends the whole grant; a grant Google no longer knows is
 * fine). Google not answering throws a 503 with `unavailableMessage`, so the caller keeps what it was about to delete
 * and the person can try again. False when there is no connection. A token this server can no longer open (the
 * encryption key changed) cannot be revoked: it is logged and the caller goes on.
 */
export async function revokeGrant(env: Env, db: Db, userId: string, unavailableMessage: string): Promise<boolean> {
  const row = await findConnection(db, userId);
  if (!row) return false;
  const config = googleConfig(env);
  const sealed = row.refreshTokenCiphertext ?? row.accessTokenCiphertext;
  if (!config || !sealed || !encryptionConfigured(env)) {
    log.warn("gbp: grant not revoked at Google (no client or key)", { connection: row.id });
    return true;
  }
  const token = await openSecret(env, "google-token", `${row.id}:${row.refreshTokenCiphertext ? "refresh" : "access"}`, sealed).catch((error: unknown) => {
    log.error("gbp: stored token unreadable, grant not revoked", { connection: row.id }, error);
    return null;
  });
  if (token === null) return true;
  try {
    await revokeToken(config, token);
  } catch (error) {
    if (error instanceof GoogleError && error.kind === "unavailable") throw new HttpError(503, ErrorCode.unavailable, unavailableMessage);
    throw error;
  }
  return true;
}

/** Disconnects: the grant is revoked at Google first, then forgotten here (a grant Google no longer knows is fine). */
export async function disconnect(env: Env, db: Db, userId: string): Promise<boolean> {
  if (!(await revokeGrant(env, db, userId, "Google did not answer, so the connection was kept. Try again in a minute."))) return false;
  await deleteConnection(db, userId);
  return true;
}
