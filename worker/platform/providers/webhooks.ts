// Outgoing webhook deliveries (issue 21): the one place the worker posts to an agency's endpoint. Signed the way Stripe
// signs (`Porchlight-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, Web Crypto), never follows a
// redirect, gives up after the time-out, reads at most a little of the answer. The endpoint goes through the fetch guard
// first (worker/platform/providers/fetch-guard.ts: the webhook URL rule, then the host name's addresses over DNS, all public).
import { checkWebhookUrl } from "../notifications/rules/lead-alerts";
import type { Env } from "../env";
import { guardedFetch, guardUrl, type GuardDecision } from "./fetch-guard";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const SIGNATURE_HEADER = "Porchlight-Signature";
export const DELIVERY_HEADER = "Porchlight-Delivery";
export const EVENT_HEADER = "Porchlight-Event";

const enc = new TextEncoder();

export function webhookTimeoutMs(env: Env): number {
  const ms = Number(env.WEBHOOK_TIMEOUT_MS);
  return ms > 0 ? ms : WEBHOOK_TIMEOUT_MS;
}

export function webhookLoopbackAllowed(env: Env): boolean {
  return env.WEBHOOKS_ALLOW_LOOPBACK === "1" || env.WEBHOOKS_ALLOW_LOOPBACK === "true";
}

/** The hex HMAC-SHA256 of `<t>.<body>` under the endpoint's secret. */
export async function signPayload(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${timestamp}.${body}`)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function signatureHeader(secret: string, timestamp: number, body: string): Promise<string> {
  return `t=${timestamp},v1=${await signPayload(secret, timestamp, body)}`;
}

export type WebhookAttempt = { ok: boolean; status: number | null; error: string | null; refused?: boolean };

/** The endpoint rule with its DNS lookup (the add and edit forms, and every delivery through postWebhook). */
export function guardWebhookUrl(env: Env, url: string): Promise<GuardDecision> {
  const allowLoopback = webhookLoopbackAllowed(env);
  return guardUrl(env, url, { allowLoopback, rule: (u) => checkWebhookUrl(u, allowLoopback) });
}

/**
 * Posts one delivery; the answer's status decides (2xx delivered), a redirect or time-out is a failure. An endpoint the
 * guard refuses is never requested (`refused`: the address itself, or a name that resolves to a private address;
 * a resolver that does not answer is an ordinary failure, retried later).
 */
export async function postWebhook(
  env: Env,
  input: { url: string; secret: string; body: string; deliveryId: string; eventType: string; now: Date },
): Promise<WebhookAttempt> {
  const t = Math.floor(input.now.getTime() / 1000);
  const timeoutMs = webhookTimeoutMs(env);
  const allowLoopback = webhookLoopbackAllowed(env);
  try {
    const got = await guardedFetch(env, input.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Porchlight-Webhooks/1.0 (+https://porchlight.app)",
        [SIGNATURE_HEADER]: await signatureHeader(input.secret, t, input.body),
        [DELIVERY_HEADER]: input.deliveryId,
        [EVENT_HEADER]: input.eventType,
      },
      body: input.body,
      signal: AbortSignal.timeout(timeoutMs),
    }, { allowLoopback, rule: (u) => checkWebhookUrl(u, allowLoopback), timeoutMs });
    if (!got.ok) return { ok: false, status: null, error: `address refused: ${got.reason}`, refused: got.code !== "dns_unavailable" };
    const res = got.response;
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? null : res.status >= 300 && res.status < 400 ? `redirected (${res.status}); webhooks do not follow redirects` : `answered ${res.status}` };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { ok: false, status: null, error: `no answer within ${Math.round(timeoutMs / 1000)} s` };
    return { ok: false, status: null, error: "could not connect" };
  }
}
