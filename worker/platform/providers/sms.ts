// Twilio's Messages API (issue 28's review requests by text message): POST
// {TWILIO_BASE_URL}/2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, MessagingServiceSid, Body and
// StatusCallback, HTTP Basic auth (account SID : auth token). Its callbacks (delivery status, incoming STOP) are
// signed with X-Twilio-Signature: base64 HMAC-SHA1 of the URL followed by the sorted POST parameters, keyed by the
// auth token. Paid: callers reserve from the meter first (worker/features/review-requests/request-jobs.ts).
import type { Env } from "../env";
import { log } from "../log";

const DEFAULT_BASE_URL = "https://api.twilio.com";
const DEFAULT_TIMEOUT_MS = 10_000;

export type SmsConfig = { accountSid: string; authToken: string; messagingServiceSid: string; baseUrl: string; timeoutMs: number };

/** All three set: review requests may go by text message. Without them, by mail only. */
export function smsConfig(env: Env): SmsConfig | null {
  const accountSid = env.TWILIO_ACCOUNT_SID?.trim() ?? "";
  const authToken = env.TWILIO_AUTH_TOKEN?.trim() ?? "";
  const messagingServiceSid = env.TWILIO_MESSAGING_SERVICE_SID?.trim() ?? "";
  if (!accountSid || !authToken || !messagingServiceSid) return null;
  return {
    accountSid,
    authToken,
    messagingServiceSid,
    baseUrl: (env.TWILIO_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, ""),
    timeoutMs: Number(env.TWILIO_TIMEOUT_MS) > 0 ? Number(env.TWILIO_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS,
  };
}

export function smsConfigured(env: Env): boolean {
  return smsConfig(env) !== null;
}

/** Twilio's error codes that mean the number will never take this message (opted out, not a mobile, invalid). */
const OPTED_OUT_CODES = new Set([21610]);
const PERMANENT_CODES = new Set([21211, 21214, 21408, 21610, 21612, 21614, 21617]);

export type SmsSendOutcome =
  | { ok: true; sid: string; status: string; segments: number | null }
  | { ok: false; retryable: boolean; optedOut: boolean; code: number | null; reason: string };

/** Sends one text through the Messaging Service; the status callback tells what became of it. */
export async function sendSms(config: SmsConfig, input: { to: string; body: string; statusCallback: string }): Promise<SmsSendOutcome> {
  const form = new URLSearchParams({ To: input.to, MessagingServiceSid: config.messagingServiceSid, Body: input.body, StatusCallback: input.statusCallback });
  let res: Response;
  let body: Record<string, unknown>;
  try {
    res = await fetch(`${config.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`, {
      method: "POST",
      headers: { Authorization: `Basic ${btoa(`${config.accountSid}:${config.authToken}`)}`, "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  } catch (error) {
    log.warn("sms: Twilio did not answer", {}, error);
    return { ok: false, retryable: true, optedOut: false, code: null, reason: "the text message service did not answer" };
  }
  if (res.ok && typeof body.sid === "string") {
    const segments = Number(body.num_segments);
    return { ok: true, sid: body.sid, status: typeof body.status === "string" ? body.status : "queued", segments: Number.isFinite(segments) && segments > 0 ? segments : null };
  }
  const code = typeof body.code === "number" ? body.code : null;
  const message = typeof body.message === "string" ? body.message : `answered ${res.status}`;
  const retryable = res.status === 429 || res.status >= 500;
  const optedOut = code !== null && OPTED_OUT_CODES.has(code);
  return { ok: false, retryable: retryable && !(code !== null && PERMANENT_CODES.has(code)), optedOut, code, reason: optedOut ? "the customer opted out of text messages" : message };
}

function base64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** X-Twilio-Signature for a URL and its POST parameters (the fake signs its callbacks with the same rule). */
export async function twilioSignature(authToken: string, url: string, params: URLSearchParams): Promise<string> {
  const keys = [...new Set(params.keys())].sort();
  let data = url;
  for (const key of keys) for (const value of params.getAll(key)) data += key + value;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  return base64(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(data)));
}

/** Whether a callback really comes from Twilio: its signature over the URL it called and the form it sent. */
export async function verifyTwilioSignature(authToken: string, url: string, params: URLSearchParams, signature: string | undefined): Promise<boolean> {
  if (!signature) return false;
  const expected = new TextEncoder().encode(await twilioSignature(authToken, url, params));
  const given = new TextEncoder().encode(signature);
  if (expected.length !== given.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ given[i]!;
  return diff === 0;
}
