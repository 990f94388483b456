// The lead loop's pure rules (issue 21): which shared-report opens raise an alert (the read-most threshold is the
// report's: worker/features/reports/rules/events.ts), which channels an alert takes, when a digest is due, and the
// outgoing webhooks' retry schedule and pause rule.
import { z } from "zod";
import { ALERT_KINDS, IMMEDIATE_ALERT_KINDS, REVIEW_ALERT_KINDS, WEBHOOK_EVENTS, type AlertKind } from "./lead-events";
import { checkPublicUrl, classifyIp, type AddressDecision } from "../../../domain/public-address";
import { utcToZoned } from "../../../domain/time-zone";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** An open this long after the previous one is a re-open (the prospect came back). */
export const REOPEN_AFTER_DAYS = 7;

/**
 * What an `opened` beacon means, given the report's last open before this visit (null: never opened):
 * the first open, a re-open 7 days or more after the previous, or nothing worth an alert.
 */
export function openAlert(previousOpenAt: string | null, at: string): "report_opened" | "report_reopened" | null {
  if (!previousOpenAt) return "report_opened";
  const gap = Date.parse(at) - Date.parse(previousOpenAt);
  return Number.isFinite(gap) && gap >= REOPEN_AFTER_DAYS * DAY_MS ? "report_reopened" : null;
}

/** A user's choice for one alert kind (no row: both on). */
export type AlertChannels = { inApp: boolean; byMail: boolean };
export const DEFAULT_CHANNELS: AlertChannels = { inApp: true, byMail: true };

/** How an alert is mailed: at once, in the hourly digest, or not at all (mail off or not configured). */
export function mailMode(kind: AlertKind | "webhook_paused", channels: AlertChannels, mailConfigured: boolean): "now" | "digest" | "none" {
  if (!mailConfigured || !channels.byMail) return "none";
  if (kind === "webhook_paused") return "now";
  return IMMEDIATE_ALERT_KINDS.includes(kind) ? "now" : "digest";
}

/** At most one digest an hour per user. */
export const DIGEST_INTERVAL_MS = HOUR_MS;

/** A user's pending alerts go out as a digest when none was sent in the last hour. */
export function digestDue(lastDigestAt: string | null, now: Date): boolean {
  if (!lastDigestAt) return true;
  const last = Date.parse(lastDigestAt);
  return !Number.isFinite(last) || now.getTime() - last >= DIGEST_INTERVAL_MS;
}

/** The attention queue's new items (issue 41) are mailed once a day, from this hour in the admin's time zone. */
export const ATTENTION_DIGEST_HOUR = 8;
export const DAILY_DIGEST_KINDS: readonly string[] = ["attention_new"];

/**
 * The daily digest is due from 08:00 in the admin's zone, once a local day: when none went out yet, or the last went
 * out on an earlier local day.
 */
export function dailyDigestDue(lastDigestAt: string | null, now: Date, timeZone: string): boolean {
  const today = utcToZoned(now, timeZone);
  if (Number(today.time.slice(0, 2)) < ATTENTION_DIGEST_HOUR) return false;
  if (!lastDigestAt || !Number.isFinite(Date.parse(lastDigestAt))) return true;
  return utcToZoned(lastDigestAt, timeZone).date < today.date;
}

/** Backoff of a failing delivery, in seconds after attempt n (1-based): 30 s doubling, capped at 12 h (the queue's longest delay). */
export const WEBHOOK_RETRY_BASE_SECONDS = 30;
export const WEBHOOK_RETRY_MAX_SECONDS = 43_200;
export function webhookRetryDelaySeconds(attempt: number): number {
  return Math.min(WEBHOOK_RETRY_BASE_SECONDS * 2 ** Math.max(0, attempt - 1), WEBHOOK_RETRY_MAX_SECONDS);
}

/** Tries of one delivery: the backoff above adds up to just over a day (30 s … 12 h). */
export const WEBHOOK_MAX_ATTEMPTS = 13;

/** An endpoint failing this long (no success since its first failure) is paused and its owner alerted. */
export const WEBHOOK_PAUSE_AFTER_MS = DAY_MS;
export function shouldPauseEndpoint(failingSince: string | null, now: Date): boolean {
  if (!failingSince) return false;
  const since = Date.parse(failingSince);
  return Number.isFinite(since) && now.getTime() - since >= WEBHOOK_PAUSE_AFTER_MS;
}

/** A response that counts as delivered. */
export function deliveredStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The webhook body: one stable shape for every event. */
export type WebhookBody = { id: string; type: string; created_at: string; data: Record<string, string | number | boolean | null> };

/** API shapes (zod) shared with the web screens. */
export const NotificationSettingsInput = z.object({
  settings: z
    .array(z.object({ kind: z.enum(ALERT_KINDS), inApp: z.boolean(), byMail: z.boolean() }).strict())
    .min(1)
    .max(ALERT_KINDS.length),
});
export type NotificationSettingsInput = z.infer<typeof NotificationSettingsInput>;

export const MarkReadInput = z.union([
  z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);

export const WebhookEndpointInput = z
  .object({
    url: z.string().trim().min(1).max(2000),
    description: z.string().trim().max(200).optional(),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  })
  .strict();
export const WebhookEndpointPatch = z
  .object({
    url: z.string().trim().min(1).max(2000).optional(),
    description: z.string().trim().max(200).optional(),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).optional(),
    status: z.enum(["active", "paused"]).optional(),
    rotateSecret: z.literal(true).optional(),
  })
  .strict();

/** What each alert kind says in the bell and in mail (the prospect's name in front). */
export const ALERT_TEXT: Record<AlertKind | "webhook_paused", string> = {
  report_opened: "opened their report for the first time",
  report_reopened: "opened their report again",
  report_read: "read most of their report",
  report_printed: "printed their report",
  chat_started: "started the chat on their report",
  chat_lead: "left their contact details in the chat",
  widget_lead: "asked for a free audit through your website",
  review_new: "left a new Google review",
  review_low: "left a 1–3 star Google review",
  ai_visibility_changed: "is named by AI assistants more or less often than last week",
  client_report_opened: "opened their monthly report for the first time",
  attention_new: "needs attention",
  webhook_paused: "A webhook endpoint failed for a day and was paused",
};

/** Labels of the settings screen. */
export const ALERT_LABELS: Record<AlertKind, string> = {
  report_opened: "Report opened (first time)",
  report_reopened: "Report opened again after 7 days",
  report_read: "Report read (most sections)",
  report_printed: "Report printed",
  chat_started: "Chat started",
  chat_lead: "Contact details left in the chat",
  widget_lead: "Widget lead",
  review_new: "New Google review",
  review_low: "Google review of 1–3 stars (mailed at once)",
  ai_visibility_changed: "AI Visibility changed (beyond its interval)",
  client_report_opened: "Client opened their monthly report",
  attention_new: "A client needs attention (low review, Google's edit, lost verification, failed post)",
};

/**
 * The webhook endpoint rule: the audit's public-address rule, and https only. With WEBHOOKS_ALLOW_LOOPBACK (tests,
 * local development) loopback receivers are allowed, over http too, and nothing else private.
 */
export function checkWebhookUrl(input: string, allowLoopback: boolean): AddressDecision {
  const decision = checkPublicUrl(input, { allowLoopback });
  if (!decision.ok) return decision;
  const host = decision.url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const loopback = classifyIp(host) === "loopback" || host === "localhost" || host.endsWith(".localhost");
  if (decision.url.protocol !== "https:" && !(allowLoopback && loopback)) {
    return { ok: false, code: "scheme", reason: "Webhook endpoints must use https." };
  }
  return decision;
}

/** The rule as the add form explains it. */
export const WEBHOOK_URL_RULE = "An https address on a public host (no IP addresses of private networks, no ports other than 443).";

/**
 * The alerts each role can get (issue 26): every lead-loop alert is about a prospect, and prospects are the agency's
 * (admins'), so a business owner gets none of them; their alerts are rank changes (dashboard and a daily email).
 */
export function alertKindsFor(isAdmin: boolean): readonly AlertKind[] {
  // Reviews of the user's own business (issue 28) reach every role.
  return isAdmin ? ALERT_KINDS : REVIEW_ALERT_KINDS;
}

/** The bell's empty state and the Notifications section's words, by role. */
export const ALERT_WORDS = {
  agency: {
    empty: "When a prospect opens their report, reads it, starts the chat or leaves their details, you hear it here.",
    settings: "Which of your prospects' moves reach you in the app (the bell) and by email. Leads are mailed at once; the rest at most once an hour, in one digest.",
  },
  business: {
    empty: "When a customer leaves a Google review, you hear it here. When one of your tracked keywords drops 3 or more places or leaves the top 3, you see it on your dashboard and get one email that day.",
    settings: "New Google reviews reach you in the app and by email (a review of 1–3 stars at once, the others at most once an hour, in one digest). Rank changes of your tracked keywords show on your dashboard and come by email, at most once a day.",
  },
} as const;

