// The one GoTrueClient of the app (session storage, refresh timer, URL sessions are the library's).
import { GoTrueClient } from "@supabase/auth-js";

export const AUTH_STORAGE_KEY = "porchlight-auth";

let client: GoTrueClient | null = null;
let recoveryLinkError: string | null = null;
let openedRecoveryLink = false;

/** Created on first use, so modules that merely import it (and their tests) start no session work. */
export function getAuthClient(): GoTrueClient {
  if (!client) {
    // auth-js leaves an error fragment in place; read it before the client looks at the URL.
    recoveryLinkError = readLinkError(window.location.hash);
    openedRecoveryLink = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("type") === "recovery";
    client = new GoTrueClient({
      url: `${window.location.origin}/auth/v1`,
      storageKey: AUTH_STORAGE_KEY,
      autoRefreshToken: true,
      persistSession: true,
      detectSessionInUrl: true,
    });
  }
  return client;
}

/** The error an emailed link came back with (expired or used), if any. */
export function linkError(): string | null {
  return recoveryLinkError;
}

/**
 * True when the page was opened from a recovery link. auth-js announces PASSWORD_RECOVERY a tick
 * after the initial session, so the reset page uses this to avoid flashing "invalid link".
 */
export function openedFromRecoveryLink(): boolean {
  return openedRecoveryLink;
}

function readLinkError(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return params.get("error_description") ?? (params.get("error") ? "This link is invalid or has expired." : null);
}
