// Alerts to the agency (the bell and its mail) and outgoing webhooks (endpoints and deliveries).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jobColumns } from "../jobs/columns";
import { id, createdAt, updatedAt, timestamps, belongsTo } from "../db/columns";
import { users, userId } from "../auth/tables";
import { prospects } from "../db/refs";

/** Alerts to the agency (issue 21): one row per (user, event), so the same event twice alerts once. */
export const NOTIFICATION_MAIL_STATES = ["none", "pending", "sent"] as const;
export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: userId(),
    /** An alert kind (worker/platform/notifications/rules/lead-events.ts) or webhook_paused. */
    kind: text("kind").notNull(),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    reportId: text("report_id"),
    /** The event's own fields (JSON), as the emitter handed them. */
    data: text("data").notNull().default("{}"),
    dedupeKey: text("dedupe_key").notNull(),
    /** Shown in the bell (false when the user turned the in-app channel off for this kind: mail only). */
    inApp: integer("in_app", { mode: "boolean" }).notNull().default(true),
    /** none: not mailed; pending: waits for the mail (at once or in the next digest); sent. */
    mailState: text("mail_state", { enum: NOTIFICATION_MAIL_STATES }).notNull().default("none"),
    mailedAt: text("mailed_at"),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notifications_dedupe_unique").on(t.userId, t.dedupeKey),
    index("notifications_user_idx").on(t.userId, t.inApp, t.createdAt),
    index("notifications_mail_idx").on(t.mailState, t.userId),
  ],
);

/** Per user and alert kind: in the app, by mail (absent row: both on). */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    userId: userId(),
    kind: text("kind").notNull(),
    inApp: integer("in_app", { mode: "boolean" }).notNull().default(true),
    byMail: integer("by_mail", { mode: "boolean" }).notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

export const WEBHOOK_ENDPOINT_STATUSES = ["active", "paused"] as const;
/** Outgoing webhook endpoints (issue 21): the signing secret sealed with ENCRYPTION_KEY. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: id(),
    /** The admin who added it: alerted when it is paused. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** JSON array of webhook event names. */
    events: text("events").notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    status: text("status", { enum: WEBHOOK_ENDPOINT_STATUSES }).notNull().default("active"),
    /** The first failure since the last success (null while it succeeds). */
    failingSince: text("failing_since"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: text("last_attempt_at"),
    pausedAt: text("paused_at"),
    ...timestamps(),
  },
  (t) => [index("webhook_endpoints_status_idx").on(t.status)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "sending", "retrying", "succeeded", "failed"] as const;
/** One event to one endpoint; its id is the Porchlight-Delivery header, its idempotency key keeps an event from being queued twice. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: belongsTo("endpoint_id", () => webhookEndpoints.id),
    /** The event's id (the body's `id`): a replay sends the same event again. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** The JSON body exactly as signed and sent. */
    body: text("body").notNull(),
    ...jobColumns(WEBHOOK_DELIVERY_STATUSES, "pending"),
    responseCode: integer("response_code"),
    lastError: text("last_error"),
    nextAttemptAt: text("next_attempt_at"),
    deliveredAt: text("delivered_at"),
    /** The delivery this one replays. */
    replayOf: text("replay_of"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_idempotency_unique").on(t.idempotencyKey),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);
