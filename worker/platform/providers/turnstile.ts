// Cloudflare Turnstile's siteverify (issue 21's widget): the token the widget got from the challenge is checked on the
// server with the secret. TURNSTILE_BASE_URL points tests at the fake; free, so not metered.
import type { Env } from "../env";
import { log } from "../log";

const DEFAULT_BASE_URL = "https://challenges.cloudflare.com";
const DEFAULT_TIMEOUT_MS = 5_000;

/** Both keys set: the widget renders the challenge and submissions need a token. */
export function turnstileConfigured(env: Env): boolean {
  return Boolean(env.TURNSTILE_SITE_KEY?.trim() && env.TURNSTILE_SECRET_KEY?.trim());
}

/** `hostname`: where the challenge was solved, as siteverify answers it (the caller checks it is one of its sites). */
export type TurnstileOutcome = { ok: true; hostname: string | null } | { ok: false; unavailable: boolean; reason: string };

export async function verifyTurnstile(env: Env, token: string, remoteIp: string | null): Promise<TurnstileOutcome> {
  const base = (env.TURNSTILE_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = Number(env.TURNSTILE_TIMEOUT_MS) > 0 ? Number(env.TURNSTILE_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  const form = new URLSearchParams({ secret: env.TURNSTILE_SECRET_KEY ?? "", response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  let res: Response;
  let body: { success?: unknown; hostname?: unknown; "error-codes"?: unknown };
  try {
    res = await fetch(`${base}/turnstile/v0/siteverify`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = (await res.json()) as typeof body;
  } catch (error) {
    log.warn("turnstile: siteverify unreachable", {}, error);
    return { ok: false, unavailable: true, reason: "siteverify did not answer" };
  }
  if (!res.ok) return { ok: false, unavailable: res.status >= 500, reason: `siteverify answered ${res.status}` };
  if (body.success === true) return { ok: true, hostname: typeof body.hostname === "string" && body.hostname !== "" ? body.hostname.toLowerCase() : null };
  const codes = Array.isArray(body["error-codes"]) ? body["error-codes"].join(",") : "";
  return { ok: false, unavailable: codes.includes("internal-error"), reason: codes || "not verified" };
}
