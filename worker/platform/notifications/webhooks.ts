// Outgoing webhooks (issue 21): endpoints with their own sealed secret, one delivery sent per message of webhooks-out
// (claimed first, so twice through the queue sends once), retries with backoff over a day, and an endpoint failing for
// a day paused with its owner alerted.
import { getDb, type Db } from "../db/client";
import { adminRecipients, insertNotifications } from "./queries";
import { claim } from "../jobs/claim";
import { deliveryJob, STALE_CLAIM_MS, createEndpoint, failDelivery, getDelivery, getEndpoint, insertDeliveries, pauseEndpoint, recordAttempt, strandedDeliveries, type DeliveryRow, type EndpointRow } from "./webhook-queries";
import { openSecret, sealSecret } from "../crypto/secret-box";
import { WEBHOOK_MAX_ATTEMPTS, shouldPauseEndpoint, webhookRetryDelaySeconds } from "./rules/lead-alerts";
import { WEBHOOK_EVENTS, type WebhookEvent } from "./rules/lead-events";
import type { Env } from "../env";
import { log } from "../log";
import { mailConfig } from "../providers/mail";
import { postWebhook } from "../providers/webhooks";
import { enqueueDeliveries, webhookBody } from "./emit";
import { mailAlerts } from "./mail";

/** A new signing secret: `whsec_` and 32 random bytes in hex. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function sealWebhookSecret(env: Env, endpointId: string, secret: string) {
  return sealSecret(env, "webhook-secret", endpointId, secret);
}

/** Adds an endpoint; the secret is returned this once (stored sealed). */
export async function addEndpoint(env: Env, db: Db, input: { userId: string; url: string; description: string; events: WebhookEvent[] }) {
  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  const endpoint = await createEndpoint(db, {
    id,
    userId: input.userId,
    url: input.url,
    description: input.description,
    events: JSON.stringify(orderedEvents(input.events)),
    secretCiphertext: await sealWebhookSecret(env, id, secret),
  });
  return { endpoint, secret };
}

export function orderedEvents(events: readonly string[]): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((e) => events.includes(e));
}

/** Sample data of a test event per type (docs/notifications.md's examples): `test: true` tells a receiver it is not real. */
const SAMPLE: Record<WebhookEvent, Record<string, string | number | boolean | null>> = {
  "prospect.created": { name: "Acme Plumbing", area: "Austin, TX", source: "import" },
  "report.ready": { name: "Acme Plumbing", source: "ai" },
  "report.opened": { name: "Acme Plumbing", opens: 1 },
  "chat.started": { name: "Acme Plumbing" },
  "chat.lead_captured": { name: "Acme Plumbing", contact_name: "Jane Doe", email: "jane@example.com", phone: "+1 512 555 0100" },
  "widget.lead": { name: "Acme Plumbing", area: "Austin, TX", email: "owner@example.com", website: "https://example.com" },
  "review.created": { review_id: "AbFvOqm1", reviewer: "Maria Gonzalez", stars: 5, comment: "Fixed our roof the same week.", location: "accounts/1001/locations/2001" },
  "review.replied": { review_id: "AbFvOqm1", reviewer: "Maria Gonzalez", stars: 5, reply: "Thank you, Maria!", location: "accounts/1001/locations/2001" },
  "client_report.sent": { client_report_id: "5d0c2f9e-8a41-4f7b-b3c2-6e1d9a7f0b24", user_id: "2b7f4c1a-0e9d-4a3b-8c6f-1d2e3f4a5b6c", name: "Acme Plumbing", month: "2026-10", version: 1, recipients: 1 },
  "client_report.opened": { client_report_id: "5d0c2f9e-8a41-4f7b-b3c2-6e1d9a7f0b24", user_id: "2b7f4c1a-0e9d-4a3b-8c6f-1d2e3f4a5b6c", name: "Acme Plumbing", month: "2026-10", month_label: "October 2026" },
  "attention.created": { item_id: "7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", user_id: "2b7f4c1a-0e9d-4a3b-8c6f-1d2e3f4a5b6c", kind: "low_review", title: "1-star review from Dana R. unanswered: “Nobody showed up.”" },
  "gbp.google_updated": { user_id: "2b7f4c1a-0e9d-4a3b-8c6f-1d2e3f4a5b6c", location: "accounts/1001/locations/2001", field: "phoneNumbers", owner_value: "(512) 555-0100", google_value: "(512) 555-0199" },
  "gbp.verification_changed": { user_id: "2b7f4c1a-0e9d-4a3b-8c6f-1d2e3f4a5b6c", location: "accounts/1001/locations/2001", verified: false, action: "comply_with_guidelines", reason: "BUSINESS_LOCATION_SUSPENDED" },
  "prospect.stage_changed": { name: "Acme Plumbing", from: "contacted", to: "engaged", cause: "report_opened" },
  "ai_visibility.changed": { scan_id: "9b2f0c1e-5a77-4c1b-9a53-0d6f3b1f2a10", name: "Acme Plumbing", question: "best plumber in Austin", engine: "perplexity", before: 0.2, after: 0.8, direction: "up", changes: 1 },
};

/** Queues a test event to one endpoint (its first subscribed event, or `type`). */
export async function sendTestEvent(env: Env, db: Db, endpoint: EndpointRow, type?: WebhookEvent) {
  const subscribed = parseEvents(endpoint.events);
  const event = type ?? subscribed[0] ?? "prospect.created";
  const eventId = `evt_${crypto.randomUUID().replace(/-/g, "")}`;
  const body = JSON.stringify(webhookBody(eventId, event, new Date().toISOString(), { prospect_id: null, report_id: null, ...SAMPLE[event], test: true }));
  const id = crypto.randomUUID();
  await insertDeliveries(db, [{ id, endpointId: endpoint.id, eventId, eventType: event, idempotencyKey: `test:${id}`, body }]);
  await enqueueDeliveries(env, [id]);
  return id;
}

/** Sends a delivery again as a new delivery (same event id and body, a new delivery id). */
export async function replayDelivery(env: Env, db: Db, original: DeliveryRow) {
  const id = crypto.randomUUID();
  await insertDeliveries(db, [
    { id, endpointId: original.endpointId, eventId: original.eventId, eventType: original.eventType, idempotencyKey: `replay:${id}`, body: original.body, replayOf: original.id },
  ]);
  await enqueueDeliveries(env, [id]);
  return id;
}

export function parseEvents(text: string): WebhookEvent[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? orderedEvents(value.filter((v): v is string => typeof v === "string")) : [];
  } catch {
    return [];
  }
}

export type DeliveryOutcome = "skipped" | "succeeded" | "retrying" | "failed" | "paused";

/** Sends one delivery (the webhooks-out consumer). Throws only when D1 itself fails (the message is then retried). */
export async function processDelivery(env: Env, deliveryId: string, now = new Date()): Promise<DeliveryOutcome> {
  const db = getDb(env);
  const [delivery] = await claim(db, deliveryJob, [deliveryId], { now: now.toISOString(), staleBefore: new Date(now.getTime() - STALE_CLAIM_MS).toISOString() });
  if (!delivery) return "skipped";
  const endpoint = await getEndpoint(db, delivery.endpointId);
  if (!endpoint) return "skipped";
  if (endpoint.status === "paused") {
    await failDelivery(db, delivery.id, "The endpoint is paused: resume it, then replay this delivery.");
    return "failed";
  }
  const at = now.toISOString();
  // postWebhook guards the address (the rule, then DNS) before it posts: a refused endpoint is never requested.
  const secret = await openSecret(env, "webhook-secret", endpoint.id, endpoint.secretCiphertext);
  const attempt = await postWebhook(env, { url: endpoint.url, secret, body: delivery.body, deliveryId: delivery.id, eventType: delivery.eventType, now });
  const base = { deliveryId: delivery.id, endpointId: endpoint.id, responseCode: attempt.status, at };
  if (attempt.ok) {
    await recordAttempt(db, { ...base, status: "succeeded", error: null, nextAttemptAt: null });
    log.info("webhook delivered", { deliveryId: delivery.id, status: attempt.status, attempt: delivery.attempts });
    return "succeeded";
  }
  const failingSince = endpoint.failingSince ?? at;
  if (shouldPauseEndpoint(failingSince, now)) {
    await recordAttempt(db, { ...base, status: "failed", error: attempt.error, nextAttemptAt: null });
    if (await pauseEndpoint(db, endpoint.id, at)) await alertPaused(env, db, endpoint, at);
    log.warn("webhook endpoint paused after a day of failures", { endpointId: endpoint.id });
    return "paused";
  }
  if (delivery.attempts >= WEBHOOK_MAX_ATTEMPTS || attempt.refused) {
    await recordAttempt(db, { ...base, status: "failed", error: attempt.error, nextAttemptAt: null });
    return "failed";
  }
  const delay = webhookRetryDelaySeconds(delivery.attempts);
  await recordAttempt(db, { ...base, status: "retrying", error: attempt.error, nextAttemptAt: new Date(now.getTime() + delay * 1000).toISOString() });
  await enqueueDeliveries(env, [delivery.id], delay);
  log.info("webhook delivery failed, retrying", { deliveryId: delivery.id, status: attempt.status, attempt: delivery.attempts, delay });
  return "retrying";
}

/** The endpoint's owner (else every admin) hears it was paused: in the app and by mail. */
async function alertPaused(env: Env, db: Db, endpoint: EndpointRow, at: string) {
  const to = endpoint.userId ? [{ id: endpoint.userId }] : await adminRecipients(db);
  const mail = mailConfig(env) !== null;
  await insertNotifications(
    db,
    to.map((u) => ({
      userId: u.id,
      kind: "webhook_paused",
      prospectId: null,
      reportId: null,
      data: JSON.stringify({ endpoint_id: endpoint.id, url: endpoint.url }),
      dedupeKey: `webhook_paused:${endpoint.id}:${at}`,
      inApp: true,
      mailState: mail ? ("pending" as const) : ("none" as const),
      createdAt: at,
    })),
  );
  if (mail) await mailAlerts(env, db, new Date(at), to.map((u) => u.id));
}

/** The dead-letter consumer: a delivery the consumer itself could not handle ends failed (replayable), never stuck. */
export async function giveUpOnDelivery(env: Env, deliveryId: string) {
  const db = getDb(env);
  if (!(await getDelivery(db, deliveryId))) return;
  await failDelivery(db, deliveryId, "Could not be sent after several tries on our side. Replay it from the log.");
}

/** The 5-minute cron: alert digests that are due, and deliveries whose message was lost queued again (claims keep it once). */
export async function sweepAlertsAndWebhooks(env: Env, now = new Date()) {
  const db = getDb(env);
  try {
    await mailAlerts(env, db, now);
  } catch (error) {
    log.error("alert digests failed", {}, error);
  }
  const stranded = await strandedDeliveries(db, now);
  await enqueueDeliveries(env, stranded);
}
