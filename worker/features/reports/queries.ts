// Queries for seo_reports: create with its prospect, list, read, and the status transitions of generation.
//
// Status machine: draft → queued → generating → ready (or back to queued for a retry).
// `claimed_at` is the moment the current status began to count: for `generating` when the consumer
// claimed it (also the fencing token of its save), for `queued` when its message is due. The sweep
// uses it to find claims and queue entries that went stale.
import { and, desc, eq, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { NormalizedReportContent } from "./rules/content";
import { ENQUEUEABLE_STATUSES } from "./rules/status";
import { latestAuditQuery, latestAuditStepsQuery, prospectOfReport, type AuditRow, type AuditStepRow } from "../audits";
import type { Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { latestProspectChecksQuery, latestProspectScanQuery, type CitationCheckRow, type CitationScanRow } from "../citations";
import { latestProspectAiScanQuery, type AiScanRow } from "../ai-visibility";
import { afterCursor, rowid, type Cursor } from "../../platform/db/cursor";
import type { NewProspect, ProspectRow } from "../prospects";
import { profiles } from "../../platform/auth/tables";
import { prospects } from "../prospects/tables";
import { seoReports } from "./tables";

export type ReportRow = typeof seoReports.$inferSelect;
const ENQUEUEABLE = [...ENQUEUEABLE_STATUSES];

/** Inserts the prospect and its report in one batch; the report starts queued when it will be generated. */
export async function createProspectWithReport(
  db: Db,
  input: { prospect: Omit<NewProspect, "id" | "userId" | "createdAt">; questions: string; userId: string; queued: boolean },
): Promise<{ report: ReportRow; prospect: ProspectRow }> {
  const now = new Date().toISOString();
  const prospectId = crypto.randomUUID();
  const reportId = crypto.randomUUID();
  const [insertedProspect, insertedReport] = await db.batch([
    db
      .insert(prospects)
      .values({ id: prospectId, userId: input.userId, createdAt: now, ...input.prospect })
      .returning(),
    db
      .insert(seoReports)
      .values({
        id: reportId,
        prospectId,
        userId: input.userId,
        contentGenerated: false,
        questions: input.questions,
        status: input.queued ? "queued" : "draft",
        claimedAt: input.queued ? now : null,
        createdAt: now,
      })
      .returning(),
  ]);
  return { prospect: insertedProspect[0]!, report: insertedReport[0]! };
}

export async function getReportWithProspect(db: Db, id: string) {
  const rows = await db
    .select({ report: seoReports, prospect: prospects })
    .from(seoReports)
    .innerJoin(prospects, eq(prospects.id, seoReports.prospectId))
    .where(eq(seoReports.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * What a report job needs before its claim, in one round trip: the report, its prospect, and the prospect's newest
 * audit with its steps (the generation's findings, and whether it should wait for the audit).
 */
export async function readReportJob(
  db: Db,
  id: string,
): Promise<{ report: ReportRow | null; prospect: ProspectRow | null; audit: AuditRow | null; steps: AuditStepRow[]; listingScan: CitationScanRow | null; listingChecks: CitationCheckRow[]; aiScan: AiScanRow | null }> {
  const prospectId = prospectOfReport(id);
  // Separate statements: D1 hands batched rows back by column name, and a join's two `id`s would collide.
  const [report, prospect, latest, steps, listingScan, listingChecks, aiScan] = await db.batch([
    db.select().from(seoReports).where(eq(seoReports.id, id)).limit(1),
    db.select().from(prospects).where(eq(prospects.id, prospectId)).limit(1),
    latestAuditQuery(db, prospectId),
    latestAuditStepsQuery(db, prospectId),
    latestProspectScanQuery(db, prospectId),
    latestProspectChecksQuery(db, prospectId),
    latestProspectAiScanQuery(db, prospectId),
  ]);
  return { report: report[0] ?? null, prospect: prospect[0] ?? null, audit: latest[0]?.audit ?? null, steps, listingScan: listingScan[0] ?? null, listingChecks, aiScan: aiScan[0] ?? null };
}

/** The one-row read the shared endpoint makes before it looks in the cache. */
export async function getReportVersion(db: Db, id: string) {
  const rows = await db
    .select({ status: seoReports.status, version: seoReports.version })
    .from(seoReports)
    .where(eq(seoReports.id, id))
    .limit(1);
  return rows[0] ?? null;
}

const listColumns = {
  id: seoReports.id,
  status: seoReports.status,
  source: seoReports.source,
  attempts: seoReports.attempts,
  contentGenerated: seoReports.contentGenerated,
  createdAt: seoReports.createdAt,
  generatedAt: seoReports.generatedAt,
  seq: rowid(seoReports),
  prospectId: prospects.id,
  name: prospects.name,
  companyName: prospects.companyName,
  area: prospects.area,
  keyword: prospects.keyword,
  tag: prospects.tag,
};

/** One row of the reports list: the report's state and its prospect's name, place and tag. */
export type ReportListRow = Awaited<ReturnType<typeof listReports>>["rows"][number];

/** Newest first, keyset-paginated on (created_at, rowid) like every list. */
export async function listReports(db: Db, opts: { limit: number; cursor: Cursor | null }) {
  const rows = await db
    .select(listColumns)
    .from(seoReports)
    .innerJoin(prospects, eq(prospects.id, seoReports.prospectId))
    .where(opts.cursor ? afterCursor(seoReports, seoReports.createdAt, opts.cursor) : undefined)
    .orderBy(desc(seoReports.createdAt), desc(rowid(seoReports)))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    next: rows.length > opts.limit && last ? { createdAt: last.createdAt, seq: last.seq } : null,
  };
}

export async function reportStatuses(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: seoReports.id,
      status: seoReports.status,
      source: seoReports.source,
      attempts: seoReports.attempts,
      contentGenerated: seoReports.contentGenerated,
      generatedAt: seoReports.generatedAt,
      claimedAt: seoReports.claimedAt,
    })
    .from(seoReports)
    .where(inArray(seoReports.id, ids));
}

/** draft/failed → queued (compare-and-set). Returns false when the report was not in such a state. */
export async function markQueued(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(seoReports)
    .set({ status: "queued", claimedAt: new Date().toISOString(), attempts: 0, lastError: null })
    .where(and(eq(seoReports.id, id), inArray(seoReports.status, ENQUEUEABLE)))
    .returning({ id: seoReports.id });
  return rows.length > 0;
}

/** Every draft/failed report → queued, in one statement. Returns the ids to send. */
export async function markAllQueued(db: Db): Promise<string[]> {
  const rows = await db
    .update(seoReports)
    .set({ status: "queued", claimedAt: new Date().toISOString(), attempts: 0, lastError: null })
    .where(inArray(seoReports.status, ENQUEUEABLE))
    .returning({ id: seoReports.id });
  return rows.map((r) => r.id);
}

/**
 * A report's generation as a job: queued (or a `generating` claim older than the stale cut, or with none) →
 * generating, attempts + 1. The won row's claimed_at is the fencing token for the save that follows; nothing is won
 * when the report is not claimable (already ready, fresh generating, draft, or gone).
 */
export const reportJob = defineJob({
  table: seoReports,
  rows: (id: string) => eq(seoReports.id, id),
  status: { column: seoReports.status, from: ["queued"], to: "generating" },
  claimedAt: seoReports.claimedAt,
  stale: { orNull: true },
  attempts: seoReports.attempts,
});

/** True, in a statement later in the claim's batch, when the report is under the claim made at `claimedAt`. */
export function reportUnderClaim(id: string, claimedAt: string): SQL {
  return sql`exists (select 1 from ${seoReports} where ${seoReports.id} = ${id} and ${seoReports.status} = 'generating' and ${seoReports.claimedAt} = ${claimedAt})`;
}

function contentColumns(content: NormalizedReportContent) {
  return {
    metaSeo: JSON.stringify(content.metaSEO),
    perfectAd: JSON.stringify(content.perfectAd),
    potential: JSON.stringify(content.seoPotential),
    gmbArticles: JSON.stringify(content.gmbArticles),
    blogStructures: JSON.stringify(content.blogStructures),
    facebookPosts: JSON.stringify(content.facebookPosts),
    seoPotential: content.seoPotential.score,
    contentGenerated: true,
  };
}

export type SaveContentInput = {
  content: NormalizedReportContent;
  source: "ai" | "template";
  /** Why the content is template content (null for AI content). */
  lastError: string | null;
};

/**
 * Saves the whole content and marks the report ready in one statement, fenced by the claim: a consumer whose claim
 * was taken over by another (after the sweep) saves nothing. A statement, run alone or in a batch beside the meter's
 * settle; answers `[{ version }]` with the new version, or `[]` when the fence did not hold.
 */
export function saveClaimedContentStatement(db: Db, id: string, claimedAt: string, input: SaveContentInput) {
  return db
    .update(seoReports)
    .set({
      ...contentColumns(input.content),
      status: "ready",
      source: input.source,
      lastError: input.lastError,
      generatedAt: new Date().toISOString(),
      version: sql`${seoReports.version} + 1`,
    })
    .where(and(eq(seoReports.id, id), eq(seoReports.status, "generating"), eq(seoReports.claimedAt, claimedAt)))
    .returning({ version: seoReports.version });
}

/** Saves template content for any report not yet ready (the dead-letter path). Returns the new version. */
export async function saveTemplateUnlessReady(db: Db, id: string, content: NormalizedReportContent, reason: string) {
  const rows = await db
    .update(seoReports)
    .set({
      ...contentColumns(content),
      status: "ready",
      source: "template",
      lastError: reason,
      generatedAt: new Date().toISOString(),
      version: sql`${seoReports.version} + 1`,
    })
    .where(and(eq(seoReports.id, id), ne(seoReports.status, "ready")))
    .returning({ version: seoReports.version });
  return rows[0]?.version ?? null;
}

/** generating → queued after a failed attempt (fenced by the claim); due = when the retry message arrives. */
export async function releaseForRetry(db: Db, id: string, claimedAt: string, error: string, dueAt: string) {
  const rows = await db
    .update(seoReports)
    .set({ status: "queued", claimedAt: dueAt, lastError: error })
    .where(and(eq(seoReports.id, id), eq(seoReports.status, "generating"), eq(seoReports.claimedAt, claimedAt)))
    .returning({ id: seoReports.id });
  return rows.length > 0;
}

/** How many rows one sweep re-queues at most (the next run takes the rest). */
export const SWEEP_LIMIT = 500;

/**
 * Stale `generating` claims (the consumer died) → queued, and `queued` reports whose message is long
 * overdue (lost) get a fresh due time. Returns the ids that need a new message.
 */
export async function requeueStale(db: Db, now: string, generatingBefore: string, queuedBefore: string) {
  const staleGenerating = db
    .select({ id: seoReports.id })
    .from(seoReports)
    .where(and(eq(seoReports.status, "generating"), or(isNull(seoReports.claimedAt), lt(seoReports.claimedAt, generatingBefore))))
    .limit(SWEEP_LIMIT);
  const staleQueued = db
    .select({ id: seoReports.id })
    .from(seoReports)
    .where(and(eq(seoReports.status, "queued"), or(isNull(seoReports.claimedAt), lt(seoReports.claimedAt, queuedBefore))))
    .limit(SWEEP_LIMIT);
  const [fromGenerating, fromQueued] = await db.batch([
    db
      .update(seoReports)
      .set({ status: "queued", claimedAt: now, lastError: "Generation stalled; re-queued by the sweep" })
      .where(and(inArray(seoReports.id, staleGenerating), eq(seoReports.status, "generating")))
      .returning({ id: seoReports.id }),
    db
      .update(seoReports)
      .set({ claimedAt: now })
      .where(and(inArray(seoReports.id, staleQueued), eq(seoReports.status, "queued")))
      .returning({ id: seoReports.id }),
  ]);
  return { generating: fromGenerating.map((r) => r.id), queued: fromQueued.map((r) => r.id) };
}

/** The agency shown as the sender of shared reports: the first admin's business profile. */
export async function getAgencySender(db: Db) {
  const rows = await db
    .select({ companyName: profiles.companyName, logoUrl: profiles.companyLogoUrl, website: profiles.companyWebsite })
    .from(profiles)
    .where(eq(profiles.isAdmin, true))
    .orderBy(profiles.createdAt)
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Findings that landed after the prospect's report was written change what the report shows: its version is bumped
 * (the shared page's cache key and ETag), and the old version answered so the caller purges its cached copy.
 */
export async function bumpReportVersionOfProspect(db: Db, prospectId: string): Promise<{ reportId: string; version: number } | null> {
  const rows = await db
    .update(seoReports)
    .set({ version: sql`${seoReports.version} + 1` })
    .where(and(eq(seoReports.prospectId, prospectId), eq(seoReports.status, "ready")))
    .returning({ reportId: seoReports.id, version: seoReports.version });
  return rows[0] ?? null;
}
