// Monthly client reports (issue 30): settings per client, one report per client and month (created once: unique
// (user_id, month)), the build claimed queued → building by compare-and-set (`claimed_at`; a stale claim is taken
// again), the mail claimed by compare-and-set (`mail_claimed_at`), and the stored data a report is built from.
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { newestRow, type Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { profiles, users } from "../../platform/auth/tables";
import { aiScans } from "../ai-visibility/tables";
import { citationChecks, citationScans } from "../citations/tables";
import { clientReports, clientReportSettings } from "./tables";
import { scheduledPosts } from "../integrations/tables";
import { gridPoints, gridScans, keywordChecks, trackedKeywords } from "../rank/tables";
import { reviewRequests } from "../review-requests/tables";
import { reviews } from "../reviews/tables";
import type { ReportClientFigures } from "./rules/client-figures";

export type ClientReportRow = typeof clientReports.$inferSelect;
export type ClientReportSettingsRow = typeof clientReportSettings.$inferSelect;
type Range = { start: string; end: string };

// ——— settings ———

export async function getClientReportSettings(db: Db, userId: string): Promise<ClientReportSettingsRow | null> {
  const rows = await db.select().from(clientReportSettings).where(eq(clientReportSettings.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function saveClientReportSettings(db: Db, userId: string, row: { enabled: boolean; recipients?: string[]; enabledBy: "admin" | "user" }): Promise<ClientReportSettingsRow> {
  const now = new Date().toISOString();
  const set: Partial<typeof clientReportSettings.$inferInsert> = { enabled: row.enabled, enabledBy: row.enabledBy, updatedAt: now };
  if (row.recipients) set.recipients = JSON.stringify(row.recipients);
  const saved = await db
    .insert(clientReportSettings)
    .values({ userId, enabled: row.enabled, enabledBy: row.enabledBy, recipients: JSON.stringify(row.recipients ?? []), updatedAt: now })
    .onConflictDoUpdate({ target: clientReportSettings.userId, set })
    .returning();
  return saved[0]!;
}

/** Clients the cron builds for: switched on, with their business's zone (null: UTC). */
export async function enabledClients(db: Db, limit = 500): Promise<{ userId: string; timeZone: string | null }[]> {
  return db
    .select({ userId: clientReportSettings.userId, timeZone: profiles.timeZone })
    .from(clientReportSettings)
    .leftJoin(profiles, eq(profiles.id, clientReportSettings.userId))
    .where(eq(clientReportSettings.enabled, true))
    .limit(limit);
}

/** Every business user (not admins) with their settings, for the admin's list. */
export async function businessUsersWithSettings(db: Db, limit = 500) {
  return db
    .select({ userId: users.id, email: profiles.email, businessName: profiles.companyName, timeZone: profiles.timeZone, settings: clientReportSettings })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(clientReportSettings, eq(clientReportSettings.userId, users.id))
    .where(or(isNull(profiles.isAdmin), eq(profiles.isAdmin, false)))
    .orderBy(asc(profiles.companyName))
    .limit(limit);
}

// ——— reports ———

/** Creates the month's report unless it exists (unique (user_id, month)); null when it already did. */
export async function createClientReportOnce(db: Db, row: { id: string; userId: string; month: string; trigger: "cron" | "admin" | "user"; shareToken: string; mailWhenReady: boolean }): Promise<ClientReportRow | null> {
  const rows = await db.insert(clientReports).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function getClientReport(db: Db, id: string): Promise<ClientReportRow | null> {
  const rows = await db.select().from(clientReports).where(eq(clientReports.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function clientReportOfMonth(db: Db, userId: string, month: string): Promise<ClientReportRow | null> {
  const rows = await db.select().from(clientReports).where(and(eq(clientReports.userId, userId), eq(clientReports.month, month))).limit(1);
  return rows[0] ?? null;
}

export async function listClientReports(db: Db, userId: string, limit = 36): Promise<ClientReportRow[]> {
  return db.select().from(clientReports).where(eq(clientReports.userId, userId)).orderBy(desc(clientReports.month)).limit(limit);
}

/** Each user's newest report (by month). */
export async function lastClientReports(db: Db, userIds: string[]): Promise<Map<string, ClientReportRow>> {
  const out = new Map<string, ClientReportRow>();
  for (let i = 0; i < userIds.length; i += 90) {
    const rows = await db.select().from(clientReports).where(inArray(clientReports.userId, userIds.slice(i, i + 90))).orderBy(desc(clientReports.month));
    for (const r of rows) if (!out.has(r.userId)) out.set(r.userId, r);
  }
  return out;
}

/** A rebuild: the next version, same token, queued again (mailed when ready only if asked). */
export async function requeueClientReport(db: Db, id: string, opts: { trigger: "admin" | "user"; mailWhenReady: boolean }): Promise<ClientReportRow | null> {
  const rows = await db
    .update(clientReports)
    .set({ status: "queued", version: sql`${clientReports.version} + 1`, claimedAt: null, error: null, trigger: opts.trigger, mailWhenReady: opts.mailWhenReady, updatedAt: new Date().toISOString() })
    .where(and(eq(clientReports.id, id), or(eq(clientReports.status, "ready"), eq(clientReports.status, "failed"))))
    .returning();
  return rows[0] ?? null;
}

/** A report's build as a job: queued → building; a building claim older than the stale cut is taken again. */
export const clientReportBuildJob = defineJob({
  table: clientReports,
  rows: (id: string) => eq(clientReports.id, id),
  status: { column: clientReports.status, from: ["queued"], to: "building" },
  claimedAt: clientReports.claimedAt,
  attempts: clientReports.attempts,
  set: (now) => ({ updatedAt: now }),
});

/** building → ready, only by the claim that built it. */
export async function finishClientReportBuild(
  db: Db,
  id: string,
  claimedAt: string,
  done: { payload: string; summarySource: "ai" | "template"; summaryNote: string | null },
): Promise<ClientReportRow | null> {
  const now = new Date().toISOString();
  const rows = await db
    .update(clientReports)
    .set({ status: "ready", payload: done.payload, summarySource: done.summarySource, summaryNote: done.summaryNote, builtAt: now, error: null, updatedAt: now })
    .where(and(eq(clientReports.id, id), eq(clientReports.status, "building"), eq(clientReports.claimedAt, claimedAt)))
    .returning();
  return rows[0] ?? null;
}

/** building → queued again after a failed try (its message is retried), only by the claim that took it. */
export async function releaseClientReportBuild(db: Db, id: string, claimedAt: string, error: string): Promise<void> {
  await db
    .update(clientReports)
    .set({ status: "queued", claimedAt: null, error, updatedAt: new Date().toISOString() })
    .where(and(eq(clientReports.id, id), eq(clientReports.status, "building"), eq(clientReports.claimedAt, claimedAt)));
}

export async function failClientReportBuild(db: Db, id: string, claimedAt: string | null, error: string): Promise<void> {
  await db
    .update(clientReports)
    .set({ status: "failed", error, updatedAt: new Date().toISOString() })
    .where(and(eq(clientReports.id, id), claimedAt ? eq(clientReports.claimedAt, claimedAt) : inArray(clientReports.status, ["queued", "building"])));
}

/** Reports queued or stuck building: the cron sends them again (their messages may have been lost). */
export async function staleClientReports(db: Db, staleBefore: string, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: clientReports.id })
    .from(clientReports)
    .where(or(and(eq(clientReports.status, "queued"), lt(clientReports.updatedAt, staleBefore)), and(eq(clientReports.status, "building"), lt(clientReports.claimedAt, staleBefore))))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * The mail of a ready report as a job, claimed once (a stale claim whose send never recorded is taken again). `force` (an
 * admin's "Send now") claims a report mailed before too, but only when its last claim ended in a send (not while one
 * is under way: a double click sends once) and that send is older than `resendAfter`.
 */
export const clientReportMailJob = defineJob({
  table: clientReports,
  rows: (id: string, staleBefore: string, force: false | { resendAfter: string }) => {
    const resentOnce = force
      ? and(isNotNull(clientReports.sentAt), sql`${clientReports.mailClaimedAt} <= ${clientReports.sentAt}`, lt(clientReports.sentAt, force.resendAfter))
      : sql`1 = 0`;
    return and(
      eq(clientReports.id, id),
      eq(clientReports.status, "ready"),
      force ? sql`1 = 1` : and(eq(clientReports.mailWhenReady, true), isNull(clientReports.sentAt)),
      or(isNull(clientReports.mailClaimedAt), lt(clientReports.mailClaimedAt, staleBefore), resentOnce),
    );
  },
  set: (now) => ({ mailClaimedAt: now, updatedAt: now }),
});

/** Ready reports whose automatic mail is due but was never sent (its worker died after the build or mid-send). */
export async function unsentDueClientReports(db: Db, staleBefore: string, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: clientReports.id })
    .from(clientReports)
    .where(
      and(
        eq(clientReports.status, "ready"),
        eq(clientReports.mailWhenReady, true),
        isNull(clientReports.sentAt),
        lt(clientReports.updatedAt, staleBefore),
        or(isNull(clientReports.mailClaimedAt), lt(clientReports.mailClaimedAt, staleBefore)),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function markClientReportSent(db: Db, id: string, claimedAt: string, sentTo: string[]): Promise<boolean> {
  const now = new Date().toISOString();
  const rows = await db
    .update(clientReports)
    .set({ sentAt: now, sentTo: JSON.stringify(sentTo), mailWhenReady: false, updatedAt: now })
    .where(and(eq(clientReports.id, id), eq(clientReports.mailClaimedAt, claimedAt)))
    .returning({ id: clientReports.id });
  return rows.length > 0;
}

// ——— the stored data a report is built from ———

/** The user's own grid scans finished in a range, oldest first. */
export async function ownGridScansFinishedIn(db: Db, userId: string, range: Range) {
  return db
    .select()
    .from(gridScans)
    .where(and(eq(gridScans.userId, userId), eq(gridScans.kind, "own"), eq(gridScans.status, "done"), gte(gridScans.finishedAt, range.start), lt(gridScans.finishedAt, range.end)))
    .orderBy(asc(gridScans.finishedAt))
    .limit(200);
}

export async function pointsOfScans(db: Db, scanIds: string[]) {
  if (scanIds.length === 0) return [];
  const out: (typeof gridPoints.$inferSelect)[] = [];
  for (let i = 0; i < scanIds.length; i += 90) out.push(...(await db.select().from(gridPoints).where(inArray(gridPoints.scanId, scanIds.slice(i, i + 90))).orderBy(asc(gridPoints.idx))));
  return out;
}

/** The own tracked keywords and their finished checks before `end` (newest first). */
export async function ownKeywordChecksBefore(db: Db, userId: string, since: string, end: string) {
  const keywords = await db.select().from(trackedKeywords).where(and(eq(trackedKeywords.userId, userId), eq(trackedKeywords.kind, "own"))).limit(200);
  if (keywords.length === 0) return { keywords, checks: [] };
  const checks: (typeof keywordChecks.$inferSelect)[] = [];
  const ids = keywords.map((k) => k.id);
  for (let i = 0; i < ids.length; i += 90) {
    checks.push(
      ...(await db
        .select()
        .from(keywordChecks)
        .where(and(inArray(keywordChecks.keywordId, ids.slice(i, i + 90)), eq(keywordChecks.status, "done"), gte(keywordChecks.checkedAt, since), lt(keywordChecks.checkedAt, end)))
        .orderBy(desc(keywordChecks.checkedAt))),
    );
  }
  return { keywords, checks };
}

/** The newest finished AI Visibility scan of an owner in a range. */
export async function latestAiScanIn(db: Db, ownerKey: string, range: Range) {
  const finishedIn = and(eq(aiScans.ownerKey, ownerKey), eq(aiScans.status, "done"), gte(aiScans.finishedAt, range.start), lt(aiScans.finishedAt, range.end));
  return newestRow(db, aiScans, finishedIn, aiScans.finishedAt);
}

/** The newest finished citation scan of an owner in a range, with its checks. */
export async function latestCitationScanIn(db: Db, ownerKey: string, range: Range) {
  const finishedIn = and(eq(citationScans.ownerKey, ownerKey), eq(citationScans.status, "done"), gte(citationScans.finishedAt, range.start), lt(citationScans.finishedAt, range.end));
  const scan = await newestRow(db, citationScans, finishedIn, citationScans.finishedAt);
  if (!scan) return null;
  return { scan, checks: await db.select().from(citationChecks).where(eq(citationChecks.scanId, scan.id)) };
}

/** The user's reviews written before `end` (not removed), with what the figures need. */
export async function reviewsBefore(db: Db, userId: string, end: string) {
  return db
    .select({ stars: reviews.stars, createTime: reviews.createTime, replyComment: reviews.replyComment, replyUpdateTime: reviews.replyUpdateTime, replyState: reviews.replyState })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), isNull(reviews.deletedAt), lt(reviews.createTime, end)))
    .limit(20000);
}

/** Replies published in a range: `reply_state` published, its Google time in the range. */
export async function repliesPublishedIn(db: Db, userId: string, range: Range): Promise<number> {
  return Number(await db.$count(reviews, and(eq(reviews.userId, userId), eq(reviews.replyState, "published"), gte(reviews.replyUpdateTime, range.start), lt(reviews.replyUpdateTime, range.end))));
}

export async function reviewRequestsSentIn(db: Db, userId: string, range: Range): Promise<number> {
  return Number(await db.$count(reviewRequests, and(eq(reviewRequests.userId, userId), gte(reviewRequests.sentAt, range.start), lt(reviewRequests.sentAt, range.end))));
}

/** Google posts published (live) in a range, oldest first. */
export async function postsPublishedIn(db: Db, userId: string, range: Range) {
  return db
    .select({ body: scheduledPosts.body, publishedAt: scheduledPosts.publishedAt, googleSearchUrl: scheduledPosts.googleSearchUrl })
    .from(scheduledPosts)
    .where(and(eq(scheduledPosts.userId, userId), eq(scheduledPosts.state, "live"), gte(scheduledPosts.publishedAt, range.start), lt(scheduledPosts.publishedAt, range.end)))
    .orderBy(asc(scheduledPosts.publishedAt))
    .limit(200);
}

export async function countPostsPublishedIn(db: Db, userId: string, range: Range): Promise<number> {
  return Number(await db.$count(scheduledPosts, and(eq(scheduledPosts.userId, userId), eq(scheduledPosts.state, "live"), gte(scheduledPosts.publishedAt, range.start), lt(scheduledPosts.publishedAt, range.end))));
}

// ——— the agency's clients view ———

/** One client's monthly report figures (issue 41) in one D1 round trip (a batch of two reads): the switch and the latest report. */
export async function reportClientFigures(db: Db, userId: string): Promise<ReportClientFigures> {
  const [figures] = await runReads(db, reportClientFiguresRead(db, userId));
  return figures;
}

/** reportClientFigures's queries, for a caller's batch. */
export function reportClientFiguresRead(db: Db, userId: string) {
  return batchedRead([
    db.select({ enabled: clientReportSettings.enabled }).from(clientReportSettings).where(eq(clientReportSettings.userId, userId)).limit(1),
    db
      .select({ month: clientReports.month, status: clientReports.status, sentAt: clientReports.sentAt, openedAt: clientReports.firstOpenedAt })
      .from(clientReports)
      .where(eq(clientReports.userId, userId))
      .orderBy(desc(clientReports.month))
      .limit(1),
  ], ([settings, [latest]]): ReportClientFigures => ({ month: latest?.month ?? null, status: latest?.status ?? null, sentAt: latest?.sentAt ?? null, openedAt: latest?.openedAt ?? null, enabled: settings[0]?.enabled ?? false }));
}
