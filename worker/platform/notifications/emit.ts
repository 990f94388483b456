// The lead loop's one entry point (issue 21): something a prospect did becomes alerts for the right people (in the app,
// by mail) and webhook deliveries queued on webhooks-out. Idempotent on the event's dedupe key; never throws.
import { getDb, type Db } from "../db/client";
import { adminRecipients, alertRecipients, channelsFor, insertNotifications, type NewNotification } from "./queries";
import { endpointsFor, insertDeliveries, type NewDelivery } from "./webhook-queries";
import { mailMode, type AlertChannels, type WebhookBody } from "./rules/lead-alerts";
import type { AlertKind, ProspectEvent, WebhookEvent } from "./rules/lead-events";
import type { Env } from "../env";
import { log } from "../log";
import { mailConfig } from "../providers/mail";
import { mailAlerts } from "./mail";
import { announce } from "../events";

/**
 * Records the event's alert for the prospect's owner (else every admin) as their settings say, mails what is due,
 * and queues one webhook delivery per subscribed active endpoint. Same `dedupeKey` twice → emitted once. Errors are
 * logged, never thrown: an alert must not break the shared page or the chat.
 */
export async function emitProspectEvent(env: Env, event: ProspectEvent): Promise<void> {
  try {
    const db = getDb(env);
    await Promise.all([event.alert ? recordAlert(env, db, event) : null, event.webhook ? queueWebhooks(env, db, event.webhook, [event]) : null]);
    // The pipeline hears what the prospect did (a stage move's own webhook is not activity).
    const kind = event.alert ?? event.webhook;
    if (kind && kind !== "prospect.stage_changed") await announce("prospect.activity", { env, db, prospectId: event.prospectId, kind, at: event.at, dedupeKey: `${kind}:${event.dedupeKey}` });
  } catch (error) {
    log.error("prospect event not emitted", { alert: event.alert, webhook: event.webhook, prospectId: event.prospectId }, error);
  }
}

async function recordAlert(env: Env, db: Db, event: ProspectEvent) {
  const recipients = await alertRecipients(db, event.prospectId);
  await alertUsers(
    env,
    db,
    recipients.map((r) => r.id),
    event.alert!,
    event,
  );
}

/** What an alert row keeps of its event. */
type AlertedEvent = Pick<ProspectEvent, "reportId" | "at" | "dedupeKey" | "data"> & { prospectId: string | null };

/** One event's alert for one user as their channels say; null when they take it neither in the app nor by mail. */
function alertRow(userId: string, kind: AlertKind, channels: AlertChannels, mailOn: boolean, e: AlertedEvent): NewNotification | null {
  const mail = mailMode(kind, channels, mailOn);
  if (!channels.inApp && mail === "none") return null;
  return { userId, kind, prospectId: e.prospectId, reportId: e.reportId, data: JSON.stringify(e.data), dedupeKey: `${kind}:${e.dedupeKey}`, inApp: channels.inApp, mailState: mail === "none" ? "none" : "pending", createdAt: e.at };
}

/** Records one event's alert for each of `userIds` as their settings say, and mails those it made due at once. */
async function alertUsers(env: Env, db: Db, userIds: string[], kind: AlertKind, e: AlertedEvent) {
  const channels = await channelsFor(db, userIds, kind);
  const mailOn = mailConfig(env) !== null;
  const rows = userIds.map((id) => alertRow(id, kind, channels.get(id)!, mailOn, e)).filter((r) => r !== null);
  const fresh = await insertNotifications(db, rows);
  const toMail = [...new Set(fresh.filter((n) => n.mailState === "pending").map((n) => n.userId))];
  if (toMail.length > 0) await mailAlerts(env, db, new Date(), toMail);
}

/** The body every webhook delivery carries: `{id, type, created_at, data}`; data names the prospect and report. */
export function webhookBody(id: string, type: string, at: string, data: WebhookBody["data"]): WebhookBody {
  return { id, type, created_at: at, data };
}

/** One delivery per event and subscribed active endpoint; one query for the endpoints however many events. */
async function queueWebhooks(env: Env, db: Db, type: WebhookEvent, events: (Omit<ProspectEvent, "prospectId"> & { prospectId: string | null })[]) {
  const endpoints = await endpointsFor(db, type);
  if (endpoints.length === 0 || events.length === 0) return;
  const rows: NewDelivery[] = [];
  for (const event of events) {
    const eventId = `evt_${crypto.randomUUID().replace(/-/g, "")}`;
    // An event about the user's own business (a review) names no prospect or report.
    const data = event.prospectId === null ? event.data : { prospect_id: event.prospectId, report_id: event.reportId, ...event.data };
    const body = JSON.stringify(webhookBody(eventId, type, event.at, data));
    for (const e of endpoints) {
      rows.push({ id: crypto.randomUUID(), endpointId: e.id, eventId, eventType: type, idempotencyKey: `${e.id}:${type}:${event.dedupeKey}`, body });
    }
  }
  const fresh = await insertDeliveries(db, rows);
  await enqueueDeliveries(env, fresh);
}

/** prospect.created for prospects created together (an import, a new report, a widget lead): one call, never throws. */
export async function emitProspectsCreated(
  env: Env,
  created: { prospectId: string; reportId: string | null; name: string; area: string; source: string }[],
): Promise<void> {
  try {
    const at = new Date().toISOString();
    await queueWebhooks(
      env,
      getDb(env),
      "prospect.created",
      created.map((p) => ({
        prospectId: p.prospectId,
        reportId: p.reportId,
        alert: null,
        webhook: "prospect.created",
        at,
        dedupeKey: `prospect_created:${p.prospectId}`,
        data: { name: p.name, area: p.area, source: p.source },
      })),
    );
  } catch (error) {
    log.error("prospect.created not emitted", { count: created.length }, error);
  }
}

/** Puts deliveries on webhooks-out (a delay for a retry); a failure to queue is logged, the rows stay pending. */
export async function enqueueDeliveries(env: Env, ids: string[], delaySeconds = 0) {
  if (ids.length === 0) return;
  try {
    await env.WEBHOOKS_OUT.sendBatch(ids.map((deliveryId) => ({ body: { deliveryId }, ...(delaySeconds ? { delaySeconds } : {}) })));
  } catch (error) {
    log.error("webhook deliveries not queued", { count: ids.length }, error);
  }
}

/**
 * Something about one of the agency's clients (a monthly report opened, issue 30): alerts for every admin as their
 * settings say, webhooks for the agency's endpoints. Same dedupe key twice → emitted once. Logged, never thrown.
 */
export async function emitAgencyEvent(env: Env, event: OwnEvent): Promise<void> {
  try {
    const db = getDb(env);
    if (event.alert) {
      const admins = await adminRecipients(db);
      await alertUsers(
        env,
        db,
        admins.map((a) => a.id),
        event.alert,
        { ...event, prospectId: null, reportId: null },
      );
    }
    if (event.webhook) await queueWebhooks(env, db, event.webhook, [{ ...event, prospectId: null, reportId: null }]);
  } catch (error) {
    log.error("agency event not emitted", { alert: event.alert, webhook: event.webhook }, error);
  }
}

/** Something about a user's own business (a Google review, issue 28): alerts for that user, webhooks for the agency. */
export type OwnEvent = Omit<ProspectEvent, "prospectId" | "reportId">;

/**
 * Records each event's alert for `userId` as their settings say (mailing what is due at once) and queues the webhook
 * deliveries of each event. Same dedupe key twice → emitted once. Logged, never thrown.
 */
export async function emitOwnEvents(env: Env, userId: string, events: OwnEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    const db = getDb(env);
    const mailOn = mailConfig(env) !== null;
    const rows: NewNotification[] = [];
    const kinds = [...new Set(events.map((e) => e.alert).filter((k): k is AlertKind => k !== null))];
    for (const kind of kinds) {
      const channels = (await channelsFor(db, [userId], kind)).get(userId)!;
      for (const e of events.filter((x) => x.alert === kind)) {
        const row = alertRow(userId, kind, channels, mailOn, { ...e, prospectId: null, reportId: null });
        if (row) rows.push(row);
      }
    }
    const fresh = await insertNotifications(db, rows);
    if (fresh.some((n) => n.mailState === "pending")) await mailAlerts(env, db, new Date(), [userId]);
    const types = [...new Set(events.map((e) => e.webhook).filter((w): w is WebhookEvent => w !== null))];
    for (const type of types) {
      await queueWebhooks(
        env,
        db,
        type,
        events.filter((e) => e.webhook === type).map((e) => ({ ...e, prospectId: null, reportId: null })),
      );
    }
  } catch (error) {
    log.error("own events not emitted", { userId, count: events.length }, error);
  }
}
