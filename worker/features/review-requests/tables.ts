// Review requests: settings, short links, opt-outs and the requests themselves.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jobColumns } from "../../platform/jobs/columns";
import { id, createdAt, timestamps } from "../../platform/db/columns";
import { userId, userIdKey } from "../../platform/auth/tables";

/**
 * Review requests (issue 28): a business's settings for asking customers for Google reviews. The job-completed hook's
 * token is kept as its SHA-256 (shown once, rotatable); `place_id` is the owner's own choice of Google listing, else
 * the one their latest audit found.
 */
export const reviewRequestSettings = sqliteTable(
  "review_request_settings",
  {
    userId: userIdKey(),
    delayMinutes: integer("delay_minutes").notNull().default(120),
    emailSubject: text("email_subject"),
    emailTemplate: text("email_template"),
    smsTemplate: text("sms_template"),
    /** Quiet hours in the business's time zone, "HH:MM" each: nothing is sent from start until end. */
    quietStart: text("quiet_start").notNull().default("20:00"),
    quietEnd: text("quiet_end").notNull().default("08:00"),
    smsEnabled: integer("sms_enabled", { mode: "boolean" }).notNull().default(true),
    placeId: text("place_id"),
    hookTokenHash: text("hook_token_hash"),
    hookTokenCreatedAt: text("hook_token_created_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("review_request_settings_hook_unique").on(t.hookTokenHash)],
);

/** A business's short review link (`/r/:slug`), one per business, with its clicks counted. */
export const reviewLinks = sqliteTable(
  "review_links",
  {
    slug: text("slug").primaryKey(),
    userId: userId(),
    clicks: integer("clicks").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("review_links_user_unique").on(t.userId)],
);

/**
 * Customers who asked not to be contacted: by STOP (a phone, for every business: the text line is shared) or by the
 * mail's unsubscribe link (that business; the request's email and phone both). Kept: never removed by a later request.
 */
export const reviewOptOuts = sqliteTable(
  "review_opt_outs",
  {
    /** "*" for every business (SMS STOP), else the business's user id. */
    scope: text("scope").notNull(),
    /** A normalised email address or an E.164 phone number. */
    address: text("address").notNull(),
    via: text("via", { enum: ["sms_stop", "unsubscribe_link"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.address] }), index("review_opt_outs_address_idx").on(t.address)],
);

export const REVIEW_REQUEST_STATUSES = ["scheduled", "sent", "delivered", "opened", "failed", "opted_out"] as const;
/**
 * One review request to one customer: scheduled for `due_at` (the owner's delay, held past quiet hours), claimed by
 * compare-and-set when sent, at most one reminder (`reminder_due_at`) if the link was not opened. `token` ties the
 * short link's click to this request; `external_job_id` makes a field-service hook's job queue one request.
 */
export const reviewRequests = sqliteTable(
  "review_requests",
  {
    id: id(),
    userId: userId(),
    customerName: text("customer_name").notNull(),
    email: text("email"),
    phone: text("phone"),
    channel: text("channel", { enum: ["email", "sms"] }).notNull(),
    source: text("source", { enum: ["manual", "csv", "hook"] }).notNull(),
    externalJobId: text("external_job_id"),
    token: text("token").notNull(),
    ...jobColumns(REVIEW_REQUEST_STATUSES, "scheduled"),
    dueAt: text("due_at").notNull(),
    enqueuedAt: text("enqueued_at"),
    sentAt: text("sent_at"),
    deliveredAt: text("delivered_at"),
    openedAt: text("opened_at"),
    clicks: integer("clicks").notNull().default(0),
    reminderDueAt: text("reminder_due_at"),
    reminderSentAt: text("reminder_sent_at"),
    providerMessageId: text("provider_message_id"),
    lastError: text("last_error"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("review_requests_token_unique").on(t.token),
    uniqueIndex("review_requests_job_unique").on(t.userId, t.externalJobId),
    index("review_requests_user_idx").on(t.userId, t.createdAt),
    index("review_requests_email_idx").on(t.userId, t.email, t.createdAt),
    index("review_requests_phone_idx").on(t.userId, t.phone, t.createdAt),
    index("review_requests_due_idx").on(t.status, t.dueAt),
    index("review_requests_reminder_idx").on(t.reminderDueAt),
    index("review_requests_provider_idx").on(t.providerMessageId),
  ],
);
