// The lead loop's events (issue 21): what a prospect did that the agency hears about, as alerts in the app and by
// mail, and as outgoing webhooks. One list of names shared by the emitters (shared report beacons, chat, report
// generation, prospect import, the widget), the alert rules, the webhook sender and the web screens.

/** Outgoing webhook event types (fixed names: docs/notifications.md documents each with an example body). */
export const WEBHOOK_EVENTS = ["prospect.created", "report.ready", "report.opened", "chat.started", "chat.lead_captured", "widget.lead", "review.created", "review.replied", "ai_visibility.changed", "client_report.sent", "client_report.opened", "attention.created", "gbp.google_updated", "gbp.verification_changed", "prospect.stage_changed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What an agency is alerted to (in the app, and by mail when configured). */
export const ALERT_KINDS = [
  /** The prospect opened the shared report for the first time. */
  "report_opened",
  /** …and opened it again 7 days or more after the last open. */
  "report_reopened",
  /** Read most of it (most of its tracked sections in one visit). */
  "report_read",
  "report_printed",
  "chat_started",
  /** Left contact details in the chat. */
  "chat_lead",
  /** A lead arrived through an embedded free-audit widget. */
  "widget_lead",
  /** A new Google review of the user's own business (issue 28). */
  "review_new",
  /** A new 1–3 star review: mailed at once. */
  "review_low",
  /** A weekly AI Visibility scan's mention rate moved beyond its interval (issue 29). */
  "ai_visibility_changed",
  /** A client opened their monthly report for the first time (issue 30): the agency's alert. */
  "client_report_opened",
  /** Something about a client needs a person (issue 41: the attention queue). */
  "attention_new",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The alerts about the user's own business: its Google reviews and its AI Visibility (every role gets these; the others are about prospects). */
export const REVIEW_ALERT_KINDS = ["review_new", "review_low", "ai_visibility_changed"] as const satisfies readonly AlertKind[];

/** Alerts mailed at once; the others are batched into a digest, at most one an hour. */
export const IMMEDIATE_ALERT_KINDS: readonly AlertKind[] = ["chat_lead", "widget_lead", "review_low"];

/**
 * One thing that happened to a prospect, as the emitters hand it to `emitProspectEvent` (worker/platform/notifications/emit.ts).
 * `alert` is the alert kind it raises (if any) and `webhook` the webhook event it sends (if any); `data` is the event's
 * own fields (the lead's contact details, the section count …), never a secret.
 */
export type ProspectEvent = {
  prospectId: string;
  reportId: string | null;
  alert: AlertKind | null;
  webhook: WebhookEvent | null;
  /** When it happened (ISO); also the dedupe key's time part with `dedupeKey`. */
  at: string;
  /** Same key twice → emitted once (a beacon or a queue message delivered twice). */
  dedupeKey: string;
  data: Record<string, string | number | boolean | null>;
};
