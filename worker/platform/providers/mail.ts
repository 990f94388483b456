// The mail provider client: Resend or Postmark over HTTP (MAIL_PROVIDER), with a time-out, an idempotency key per message and one error mapping.
import type { Env } from "../env";

export type MailProviderName = "resend" | "postmark";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per message (the outbox row id): the same message sent twice is one mail. */
  idempotencyKey: string;
  /** Extra message headers (List-Unsubscribe, List-Unsubscribe-Post): both providers pass them on. */
  headers?: Record<string, string>;
}

export type SendOutcome =
  | { ok: true; providerMessageId: string | null }
  /** Retrying will not help (bad address, suppressed recipient, a message the provider refuses). */
  | { ok: false; permanent: true; reason: string }
  /** Try again later (5xx, rate limit, time-out, network, the provider's key or sender being fixed). */
  | { ok: false; permanent: false; reason: string };

export const MAIL_TIMEOUT_MS = 10_000;

const DEFAULT_BASE_URL: Record<MailProviderName, string> = {
  resend: "https://api.resend.com",
  postmark: "https://api.postmarkapp.com",
};

export interface MailConfig {
  provider: MailProviderName;
  apiKey: string;
  from: string;
  baseUrl: string;
  timeoutMs: number;
}

/** The configured provider, or null: without MAIL_PROVIDER the app keeps mail in the outbox. */
export function mailConfig(env: Env): MailConfig | null {
  const provider = (env.MAIL_PROVIDER ?? "").trim().toLowerCase();
  if (provider !== "resend" && provider !== "postmark") return null;
  return {
    provider,
    apiKey: env.MAIL_API_KEY ?? "",
    from: env.MAIL_FROM?.trim() || "Porchlight <no-reply@porchlight.app>",
    baseUrl: (env.MAIL_BASE_URL?.trim() || DEFAULT_BASE_URL[provider]).replace(/\/+$/, ""),
    timeoutMs: Number(env.MAIL_TIMEOUT_MS) > 0 ? Number(env.MAIL_TIMEOUT_MS) : MAIL_TIMEOUT_MS,
  };
}

/** Builds the provider's request: Resend's `POST /emails`, Postmark's `POST /email`. */
export function mailRequest(config: MailConfig, mail: OutgoingMail): { url: string; init: RequestInit } {
  if (config.provider === "resend") {
    return {
      url: `${config.baseUrl}/emails`,
      init: {
        method: "POST",
        headers: {
          Authorization: `Bearer ${config.apiKey}`,
          "Content-Type": "application/json",
          // Resend answers a repeated key (within 24 h) with the first send's id instead of sending again.
          "Idempotency-Key": mail.idempotencyKey,
        },
        body: JSON.stringify({ from: config.from, to: [mail.to], subject: mail.subject, html: mail.html, text: mail.text, ...(mail.headers ? { headers: mail.headers } : {}) }),
      },
    };
  }
  return {
    url: `${config.baseUrl}/email`,
    init: {
      method: "POST",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        "X-Postmark-Server-Token": config.apiKey,
      },
      body: JSON.stringify({
        From: config.from,
        To: mail.to,
        Subject: mail.subject,
        HtmlBody: mail.html,
        TextBody: mail.text,
        MessageStream: "outbound",
        // Postmark has no request idempotency: the key travels as metadata and a header of the message,
        // and the outbox row's state is what stops a second send (worker/platform/mail/queue.ts).
        Metadata: { idempotency_key: mail.idempotencyKey },
        Headers: [{ Name: "X-Porchlight-Message-Id", Value: mail.idempotencyKey }, ...Object.entries(mail.headers ?? {}).map(([Name, Value]) => ({ Name, Value }))],
      }),
    },
  };
}

/**
 * What a provider's answer means. 2xx: sent. 429, 408, 409 (Resend: the same key still in flight) and
 * 5xx: retry. 401/403: retry too (a key or sender being fixed must not lose the mail; the DLQ ends it).
 * Any other 4xx — a bad address, a suppressed recipient (Postmark ErrorCode 406), a refused message —
 * is permanent.
 */
export function classifyResponse(provider: MailProviderName, status: number, body: unknown): SendOutcome {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (status >= 200 && status < 300) {
    const id = provider === "resend" ? b.id : b.MessageID;
    return { ok: true, providerMessageId: typeof id === "string" ? id : null };
  }
  const detail =
    provider === "resend"
      ? [b.name, b.message].filter((v) => typeof v === "string").join(": ")
      : [typeof b.ErrorCode === "number" ? `ErrorCode ${b.ErrorCode}` : null, b.Message].filter((v) => typeof v === "string").join(": ");
  const reason = `${provider} ${status}${detail ? ` ${detail}` : ""}`.slice(0, 500);
  if (status >= 500 || status === 429 || status === 408 || status === 409 || status === 401 || status === 403) {
    return { ok: false, permanent: false, reason };
  }
  return { ok: false, permanent: true, reason };
}

/** Sends one message through the configured provider; never throws for the provider's answers or the network. */
export async function sendMail(config: MailConfig, mail: OutgoingMail): Promise<SendOutcome> {
  const { url, init } = mailRequest(config, mail);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(config.timeoutMs) });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return { ok: false, permanent: false, reason: timedOut ? `${config.provider}: no answer within ${config.timeoutMs} ms` : `${config.provider}: ${String(e)}`.slice(0, 500) };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // A body that is not JSON (a proxy's error page): the status decides.
  }
  return classifyResponse(config.provider, res.status, body);
}
