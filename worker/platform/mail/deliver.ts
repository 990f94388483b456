// Delivering one queued message through the provider: once, with its outcome recorded on the outbox row.
import { loadBrand } from "../brand/load";
import { getDb } from "../db/client";
import { claim } from "../jobs/claim";
import { mailJob, findMail, finishMail, mailHeaders, recordMailError } from "./outbox";
import type { Env } from "../env";
import { log } from "../log";
import { mailFromHeader } from "../brand/rules/brand";
import { mailConfig, sendMail } from "../providers/mail";

/** First retry after 10 s, doubling, at most 15 minutes apart. */
export const MAIL_RETRY_BASE_SECONDS = 10;
export const MAIL_RETRY_MAX_SECONDS = 900;

export function mailRetryDelaySeconds(attempt: number): number {
  return Math.min(MAIL_RETRY_BASE_SECONDS * 2 ** Math.max(0, Math.min(attempt - 1, 20)), MAIL_RETRY_MAX_SECONDS);
}

export type DeliveryOutcome =
  | { kind: "sent" }
  | { kind: "failed"; reason: string }
  /** Nothing to do: unknown id, or already sent or failed (a redelivered queue message). */
  | { kind: "done" }
  | { kind: "retry"; reason: string };

/**
 * Sends the outbox row `mailId` if it is still queued. A 2xx marks it sent; a permanent refusal marks
 * it failed with the reason (never retried); anything else leaves it queued for the queue's retry.
 */
export async function deliverQueuedMail(env: Env, mailId: string): Promise<DeliveryOutcome> {
  const db = getDb(env);
  const row = await findMail(db, mailId);
  if (!row || row.status !== "queued") return { kind: "done" };
  const config = mailConfig(env);
  if (!config) {
    await recordMailError(db, mailId, "MAIL_PROVIDER is not configured");
    return { kind: "retry", reason: "MAIL_PROVIDER is not configured" };
  }
  if ((await claim(db, mailJob, [mailId, row.attempts])).length === 0) {
    // Another delivery of the same message is sending it right now; look again later.
    return { kind: "retry", reason: "claimed by another delivery" };
  }
  // The From name is the brand's (MAIL_FROM keeps the address: its domain is the one the provider verified).
  const brand = await loadBrand(db);
  const from = brand.custom ? mailFromHeader(config.from, brand.mailSenderName) : config.from;
  const outcome = await sendMail({ ...config, from }, {
    to: row.toEmail,
    subject: row.subject,
    text: row.body,
    html: row.html ?? row.body,
    idempotencyKey: row.id,
    headers: mailHeaders(row.headers),
  });
  if (outcome.ok) {
    await finishMail(db, row, { status: "sent", providerMessageId: outcome.providerMessageId });
    log.info("mail sent", { mailId, kind: row.kind, provider: config.provider });
    return { kind: "sent" };
  }
  if (outcome.permanent) {
    await finishMail(db, row, { status: "failed", reason: outcome.reason });
    log.warn("mail refused for good", { mailId, kind: row.kind, reason: outcome.reason });
    return { kind: "failed", reason: outcome.reason };
  }
  await recordMailError(db, mailId, outcome.reason);
  return { kind: "retry", reason: outcome.reason };
}

/** The dead-letter queue's last word: a message that kept failing is marked failed, so nothing waits unseen. */
export async function giveUpOnMail(env: Env, mailId: string, reason: string): Promise<void> {
  const db = getDb(env);
  const row = await findMail(db, mailId);
  if (row?.status === "queued") await finishMail(db, row, { status: "failed", reason: `gave up: ${row.lastError ?? reason}` });
}
