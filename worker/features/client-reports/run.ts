// The monthly client reports' pipeline (issue 30): the cron creates each switched-on client's report for last month once
// (unique (user_id, month)) on the 1st in the business's zone and queues it; the `client-reports` consumer claims each
// report queued → building by compare-and-set, builds and freezes it, and mails it once when asked (the mail is claimed
// by compare-and-set too). A redelivered message builds and mails nothing twice; a stale claim is taken again.
import {
  clientReportBuildJob,
  clientReportMailJob,
  clientReportOfMonth,
  createClientReportOnce,
  enabledClients,
  failClientReportBuild,
  finishClientReportBuild,
  getClientReportSettings,
  markClientReportSent,
  releaseClientReportBuild,
  staleClientReports,
  unsentDueClientReports,
  type ClientReportRow,
} from "./queries";
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import { findUserById, getProfile } from "../../platform/auth/users";
import { ensureConfirmedRecipient, recipientRows, type ClientReportRecipientRow } from "./recipient-queries";
import { clientReportPaths, isFirstOfMonth, lastWholeMonth, reportMailDetail, type ClientReportPayload } from "./rules/client-report";
import { zoneOf } from "../../domain/time-zone";
import type { Env } from "../../platform/env";
import { announce } from "../../platform/events";
import { log } from "../../platform/log";
import { sendAppMail } from "../../platform/mail/send";
import { emitOwnEvents } from "../../platform/notifications/emit";
import { linkOrigin } from "../../platform/origin";
import { shareToken } from "../rank";
import { buildReportPayload } from "./build";

/** A build claim older than this is taken again (its worker died). */
export const CLIENT_REPORT_STALE_MS = 10 * 60_000;
/** "Send now" again only once the last send is this old (a second click mails nothing). */
export const CLIENT_REPORT_RESEND_AFTER_MS = 60_000;
/** Reports a message carries. */
export const CLIENT_REPORTS_PER_MESSAGE = 3;
/** Deliveries before a failing build is marked failed (wrangler.toml: max_retries 3). */
const MAX_BUILD_ATTEMPTS = 4;

const staleBefore = (now: Date) => new Date(now.getTime() - CLIENT_REPORT_STALE_MS).toISOString();

export { zoneOf };

/** Puts reports on the queue, a few per message. */
export async function enqueueClientReports(env: Env, ids: string[]): Promise<void> {
  const messages = [];
  for (let i = 0; i < ids.length; i += CLIENT_REPORTS_PER_MESSAGE) messages.push({ body: { reportIds: ids.slice(i, i + CLIENT_REPORTS_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += 100) await env.CLIENT_REPORTS.sendBatch(messages.slice(i, i + 100));
}

/** Builds the reports of one message; returns how many failed and should be tried again (the message is retried). */
export async function buildClientReports(env: Env, ids: string[], now = () => new Date()): Promise<number> {
  const db = getDb(env);
  let retry = 0;
  for (const id of ids) {
    const at = now();
    const [claimed] = await claim(db, clientReportBuildJob, [id], { now: at.toISOString(), staleBefore: staleBefore(at) });
    if (!claimed) {
      // Built already, or being built. A redelivery after a worker died between the build and its mail mails it now.
      await mailClientReport(env, db, id);
      continue;
    }
    try {
      const { payload, summaryNote } = await buildReportPayload(env, db, claimed.userId, claimed.month, at);
      const ready = await finishClientReportBuild(db, id, claimed.claimedAt!, { payload: JSON.stringify(payload), summarySource: payload.summary.source, summaryNote });
      if (ready?.mailWhenReady) await mailClientReport(env, db, ready.id);
    } catch (error) {
      log.error("client report: build failed", { reportId: id, attempt: claimed.attempts }, error);
      const reason = error instanceof Error ? error.message : String(error);
      if (claimed.attempts >= MAX_BUILD_ATTEMPTS) await failClientReportBuild(db, id, claimed.claimedAt, `The report could not be built: ${reason}`);
      else {
        await releaseClientReportBuild(db, id, claimed.claimedAt!, reason);
        retry++;
      }
    }
  }
  return retry;
}

/** What reached the dead-letter queue is marked failed (the admin's screen shows why and offers "Rebuild"). */
export async function failClientReportsForDeadLetter(env: Env, ids: string[]): Promise<void> {
  const db = getDb(env);
  for (const id of ids) await failClientReportBuild(db, id, null, "The report could not be built after several tries.");
}

/** Where a report's links to confirm and unsubscribe point (public pages: worker/features/client-reports/recipient-routes.ts). */
export const RECIPIENT_PAGES_PATH = "/shared/client-reports/recipients";
export const confirmRecipientUrl = (origin: string, token: string) => `${origin}${RECIPIENT_PAGES_PATH}/confirm/${token}`;
export const unsubscribeRecipientUrl = (origin: string, token: string) => `${origin}${RECIPIENT_PAGES_PATH}/unsubscribe/${token}`;

/**
 * Where the report's mail goes, each address with its unsubscribe token: the listed addresses that are confirmed (an
 * admin set them, or their owner confirmed by the link; the account's own address needs no confirming), else, with
 * no list, the account's address. Pending and unknown addresses get nothing.
 */
async function recipientsOf(db: Db, userId: string): Promise<{ email: string; unsubscribeToken: string }[]> {
  const [settings, user, rows] = await Promise.all([getClientReportSettings(db, userId), findUserById(db, userId), recipientRows(db, userId)]);
  let listed: string[];
  try {
    listed = settings ? (JSON.parse(settings.recipients) as string[]) : [];
  } catch {
    listed = [];
  }
  const own = user?.email?.toLowerCase() ?? null;
  const wanted = listed.length > 0 ? listed : own ? [own] : [];
  const confirmed = new Map(rows.filter((r) => r.status === "confirmed").map((r) => [r.email, r.unsubscribeToken]));
  const out: { email: string; unsubscribeToken: string }[] = [];
  for (const email of wanted) {
    const token = confirmed.get(email) ?? (email === own ? (await ensureConfirmedRecipient(db, userId, email)).unsubscribeToken : null);
    if (token) out.push({ email, unsubscribeToken: token });
  }
  return out;
}

/** Mails each newly pending address its confirmation link (at most one a day per client and address). */
export async function mailRecipientConfirmations(env: Env, db: Db, origin: string, userId: string, pending: ClientReportRecipientRow[]): Promise<void> {
  if (pending.length === 0) return;
  const [user, profile] = await Promise.all([findUserById(db, userId), getProfile(db, userId)]);
  const business = profile?.companyName || user?.email || "a business";
  const day = new Date().toISOString().slice(0, 10);
  for (const row of pending) {
    if (!row.confirmToken) continue;
    await sendAppMail(env, db, "client_report_recipient", { to: row.email, link: confirmRecipientUrl(origin, row.confirmToken), title: business, detail: user?.email ?? undefined }, { readable: false, dedupeKey: `client_report_recipient:${userId}:${row.email}:${day}` });
  }
}

/**
 * Mails a ready report once (claimed by compare-and-set): one branded message to each recipient with the headline
 * figures, the link and the PDF's link; records sent_at/sent_to and sends the webhook `client_report.sent`. `force`
 * (an admin's "Send now") mails a report that was sent before. Links are built on `origin` (a request's: "Send now"),
 * else on linkOrigin: never relative. Returns the recipients, or null when not claimed (or no origin to link to).
 */
export async function mailClientReport(env: Env, db: Db, reportId: string, opts: { force?: boolean; origin?: string } = {}): Promise<string[] | null> {
  const origin = opts.origin ?? linkOrigin(env);
  if (!origin) {
    // Left unsent (the cron tries again): a mail whose links open nothing is worse than a late one.
    log.error("client report: APP_ORIGIN is not set, links cannot be built; not mailed", { reportId });
    return null;
  }
  const now = new Date();
  const force = opts.force ? { resendAfter: new Date(now.getTime() - CLIENT_REPORT_RESEND_AFTER_MS).toISOString() } : false;
  const [claimed] = await claim(db, clientReportMailJob, [reportId, staleBefore(now), force], { now: now.toISOString() });
  if (!claimed?.payload) return null;
  // One message per recipient per send: a send taken again after its worker died (the claim went stale before
  // sent_at was recorded) skips the addresses it reached. A later "Send now" (sent_at moved on) or a rebuild is new.
  const sendKey = `client_report:${reportId}:v${claimed.version}:${claimed.sentAt ?? "first"}`;
  const payload = JSON.parse(claimed.payload) as ClientReportPayload;
  const recipients = await recipientsOf(db, claimed.userId);
  const to = recipients.map((r) => r.email);
  const paths = clientReportPaths(claimed.shareToken);
  for (const { email: address, unsubscribeToken } of recipients) {
    // Each recipient's own unsubscribe link, in the mail and as RFC 8058 one-click headers.
    const unsubscribeLink = unsubscribeRecipientUrl(origin, unsubscribeToken);
    await sendAppMail(
      env,
      db,
      "client_report",
      { to: address, link: `${origin}${paths.shareUrl}`, secondaryLink: `${origin}${paths.pdfUrl}`, unsubscribeLink, detail: reportMailDetail(payload), title: `${payload.monthLabel} results for ${payload.business.name}`, figures: payload.headline.map((h) => ({ label: h.label, value: h.value, change: h.change ? `${h.change}` : null })) },
      { readable: false, dedupeKey: `${sendKey}:${address.toLowerCase()}`, headers: { "List-Unsubscribe": `<${unsubscribeLink}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } },
    );
  }
  if (await markClientReportSent(db, reportId, claimed.mailClaimedAt!, to)) await announce("client.figures-changed", { env, db, userId: claimed.userId, group: "report" });
  await emitOwnEvents(env, claimed.userId, [
    {
      alert: null,
      webhook: "client_report.sent",
      at: now.toISOString(),
      dedupeKey: `client_report_sent:${reportId}:${claimed.version}:${now.toISOString()}`,
      data: { client_report_id: reportId, user_id: claimed.userId, name: payload.business.name, month: claimed.month, version: claimed.version, recipients: to.length },
    },
  ]);
  return to;
}

/** Creates (once) and queues a report; returns it, or the existing one untouched when the month has one already. */
export async function createAndQueueReport(env: Env, db: Db, input: { userId: string; month: string; trigger: "cron" | "admin" | "user"; mailWhenReady: boolean }): Promise<{ report: ClientReportRow; created: boolean }> {
  const created = await createClientReportOnce(db, { id: crypto.randomUUID(), shareToken: shareToken(), ...input });
  if (created) {
    await enqueueClientReports(env, [created.id]);
    return { report: created, created: true };
  }
  return { report: (await clientReportOfMonth(db, input.userId, input.month))!, created: false };
}

/**
 * The cron (every 5 minutes): on the 1st of the month in each switched-on client's zone, last month's report is
 * created once and queued, mailed when ready; reports whose message was lost (queued or building too long) go again, and a
 * ready report whose mail was due but never sent (its worker died) is mailed.
 */
export async function sweepClientReports(env: Env, now = new Date()): Promise<{ created: number; requeued: number }> {
  const db = getDb(env);
  let created = 0;
  try {
    const fresh: string[] = [];
    for (const client of await enabledClients(db)) {
      const zone = zoneOf(client.timeZone);
      if (!isFirstOfMonth(now, zone)) continue;
      const month = lastWholeMonth(now, zone);
      const row = await createClientReportOnce(db, { id: crypto.randomUUID(), shareToken: shareToken(), userId: client.userId, month, trigger: "cron", mailWhenReady: true });
      if (row) fresh.push(row.id);
    }
    created = fresh.length;
    if (fresh.length > 0) await enqueueClientReports(env, fresh);
    const stale = await staleClientReports(db, staleBefore(now));
    if (stale.length > 0) await enqueueClientReports(env, stale);
    for (const id of await unsentDueClientReports(db, staleBefore(now))) await mailClientReport(env, db, id);
    return { created, requeued: stale.length };
  } catch (error) {
    log.error("client reports: sweep failed", { created }, error);
    return { created, requeued: 0 };
  }
}
