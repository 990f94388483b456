// Alert mail (issue 21): leads at once, the other alerts in a digest of at most one an hour per user, each linking to
// the prospect's report in the app. Called by the emitter for the users it alerted and by the 5-minute cron for all.
import type { Db } from "../db/client";
import { PROVIDER_IDS, providerName, type ProviderId } from "../providers/rules/services";
import { PROVIDER_MISSING_KIND } from "./tell-agency";
import { claim } from "../jobs/claim";
import { alertMailJob, lastMailedAt, pendingMail } from "./queries";
import { ALERT_TEXT, DAILY_DIGEST_KINDS, dailyDigestDue, digestDue } from "./rules/lead-alerts";
import { IMMEDIATE_ALERT_KINDS, REVIEW_ALERT_KINDS, type AlertKind } from "./rules/lead-events";
import type { Env } from "../env";
import { log } from "../log";
import { sendAppMail } from "../mail/send";
import { linkOrigin } from "../origin";
import { zoneOf } from "../../domain/time-zone";

type Pending = Awaited<ReturnType<typeof pendingMail>>[number];


/** Where an alert links: the prospect's report in the app, else the app's reports. */
export function alertLink(origin: string, reportId: string | null): string {
  return reportId ? `${origin}/admin/reports/${encodeURIComponent(reportId)}` : `${origin}/admin/report-generator`;
}

/** Review alerts (issue 28) link to the review inbox; they name the reviewer and the stars, not a prospect. */
export function isReviewAlert(kind: string): boolean {
  return (REVIEW_ALERT_KINDS as readonly string[]).includes(kind);
}

/** An alert's event fields as the emitter kept them (JSON); none when they do not read as an object. */
function eventFields(data: string | null | undefined): Record<string, unknown> {
  try {
    const d: unknown = JSON.parse(data ?? "{}");
    return d && typeof d === "object" ? (d as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function reviewLine(data: string | null | undefined): string {
  const d = eventFields(data);
  const who = typeof d.reviewer === "string" && d.reviewer ? d.reviewer : "A customer";
  const stars = typeof d.stars === "number" && d.stars > 0 ? `a ${d.stars}-star` : "a";
  return `${who} left ${stars} Google review`;
}

/** Where an alert about a client's monthly report leads (issue 30). */
export const CLIENT_REPORTS_PATH = "/admin/client-reports";

function clientReportLine(data: string | null | undefined): string {
  const d = eventFields(data);
  const who = typeof d.name === "string" && d.name ? d.name : "A client";
  return `${who} opened their ${typeof d.month_label === "string" ? `${d.month_label} ` : ""}report for the first time`;
}

/** Where an alert about the attention queue leads (issue 41). */
export const ATTENTION_PATH = "/admin/attention";

function attentionLine(data: string | null | undefined): string {
  const title = eventFields(data).title;
  return typeof title === "string" && title ? `Needs attention: ${title}` : "A client needs attention";
}

export function alertLine(n: { kind: string; prospectName: string | null; data?: string | null }): string {
  if (n.kind === PROVIDER_MISSING_KIND) return providerMissingLine(n.data);
  if (n.kind === "attention_new") return attentionLine(n.data);
  if (n.kind === "client_report_opened") return clientReportLine(n.data);
  if (isReviewAlert(n.kind)) return reviewLine(n.data);
  const text = ALERT_TEXT[n.kind as AlertKind] ?? n.kind;
  return n.kind === "webhook_paused" ? text : `${n.prospectName ?? "A prospect"} ${text}`;
}

function providerMissingLine(data: string | null | undefined): string {
  const provider = eventFields(data).provider;
  const name = PROVIDER_IDS.includes(provider as ProviderId) ? providerName(provider as ProviderId) : "A service";
  return `A customer needed ${name}, which is not set up yet: see Set-up`;
}

function isImmediate(kind: string) {
  return kind === "webhook_paused" || IMMEDIATE_ALERT_KINDS.includes(kind as AlertKind);
}

/**
 * Mails the pending alerts of `userIds` (all users when absent): each lead at once, the rest as one digest per user
 * when none went out in the last hour; the attention queue's new items as one digest a day (from 08:00 in the admin's
 * zone). Alerts are claimed (pending → sent) before the mail is queued, so two runs
 * never mail one alert twice.
 */
export async function mailAlerts(env: Env, db: Db, now: Date, userIds?: string[]): Promise<{ immediate: number; digests: number }> {
  const origin = linkOrigin(env);
  if (!origin) {
    log.warn("alert mail: APP_ORIGIN not set, nothing mailed");
    return { immediate: 0, digests: 0 };
  }
  const pending = (await pendingMail(db)).filter((n) => !userIds || userIds.includes(n.userId));
  const at = now.toISOString();
  let immediate = 0;
  let digests = 0;
  for (const n of pending.filter((p) => isImmediate(p.kind))) {
    if ((await claim(db, alertMailJob, [[n.id]], { now: at })).length === 0) continue;
    const link = n.kind === "webhook_paused" ? `${origin}/integrations` : isReviewAlert(n.kind) ? `${origin}/tools/reviews` : n.kind === "client_report_opened" ? `${origin}${CLIENT_REPORTS_PATH}` : alertLink(origin, n.reportId);
    const mailKind = n.kind === "webhook_paused" ? "webhook_paused" : isReviewAlert(n.kind) ? "review_alert" : "lead_alert";
    await sendAppMail(env, db, mailKind, { to: n.email, link, detail: detailOf(n) }, { readable: false });
    immediate++;
  }
  // The hourly digest (everything not mailed at once), and the daily one of the attention queue's new items.
  const linkOf = (n: Pending) =>
    isReviewAlert(n.kind) ? `${origin}/tools/reviews` : n.kind === "client_report_opened" ? `${origin}${CLIENT_REPORTS_PATH}` : n.kind === "attention_new" ? `${origin}${ATTENTION_PATH}` : alertLink(origin, n.reportId);
  for (const daily of [false, true]) {
    const byUser = new Map<string, Pending[]>();
    for (const n of pending.filter((p) => !isImmediate(p.kind) && DAILY_DIGEST_KINDS.includes(p.kind) === daily)) byUser.set(n.userId, [...(byUser.get(n.userId) ?? []), n]);
    const last = await lastMailedAt(db, [...byUser.keys()], daily ? "daily" : "hourly");
    for (const [, items] of byUser) {
      const first = items[0]!;
      const lastAt = last.get(first.userId) ?? null;
      if (!(daily ? dailyDigestDue(lastAt, now, zoneOf(first.timeZone)) : digestDue(lastAt, now))) continue;
      const claimed = new Set((await claim(db, alertMailJob, [items.slice(0, 90).map((n) => n.id)], { now: at })).map((r) => r.id));
      const mine = items.filter((n) => claimed.has(n.id));
      if (mine.length === 0) continue;
      const detail = mine.map((n) => `• ${alertLine(n)} — ${linkOf(n)}`).join("\n");
      const kind = daily ? "attention_digest" : mine.every((n) => isReviewAlert(n.kind)) ? "review_digest" : "alert_digest";
      await sendAppMail(env, db, kind, { to: first.email, link: daily ? `${origin}${ATTENTION_PATH}` : linkOf(mine[mine.length - 1]!), detail }, { readable: false });
      digests++;
    }
  }
  return { immediate, digests };
}

function detailOf(n: Pending): string {
  if (n.kind !== "webhook_paused") return alertLine(n);
  try {
    const data = JSON.parse(n.data) as { url?: string };
    return `The webhook endpoint ${data.url ?? ""}`.trim();
  } catch {
    return "A webhook endpoint";
  }
}
