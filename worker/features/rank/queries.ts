// Local rank tracking (issue 19): grid scans and their points, tracked keywords and their checks, rank alerts and
// their daily digest. Points and checks are claimed per delivery (compare-and-set), so a redelivered message never
// searches twice; the cron's enqueue of a due keyword moves `last_check_at` under the due rule, so a period runs once.
import { and, asc, desc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { newestRow, type Db } from "../../platform/db/client";
import { claim, defineJob } from "../../platform/jobs/claim";
import { scanRunning, staleUnits, storeUnit, touchScan, unitJob } from "../../platform/jobs/scans";
import { prospects } from "../prospects/tables";
import { gridPoints, gridScans, keywordChecks, rankAlertDigests, rankAlerts, trackedKeywords } from "./tables";

export type GridScanRow = typeof gridScans.$inferSelect;
export type GridPointRow = typeof gridPoints.$inferSelect;
export type TrackedKeywordRow = typeof trackedKeywords.$inferSelect;
export type KeywordCheckRow = typeof keywordChecks.$inferSelect;
export type RankAlertRow = typeof rankAlerts.$inferSelect;

/** Whose scans or keywords: a user's own business, or a prospect (admins). */
export type RankOwner = { kind: "own"; userId: string } | { kind: "prospect"; prospectId: string };

/** D1 binds at most 100 parameters per statement: rows are written in chunks that stay under it. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const UNFINISHED = ["pending", "running", "retrying"] as const;

// ——— grid scans ———

export async function createGridScan(
  db: Db,
  scan: typeof gridScans.$inferInsert,
  points: Array<{ idx: number; row: number; col: number; lat: number; lng: number }>,
): Promise<GridScanRow> {
  const [inserted, ...rest] = await db.batch([
    db.insert(gridScans).values(scan).returning(),
    // Drizzle binds every column (14 with the defaults): 6 rows stay under D1's 100 parameters.
    ...chunks(points, 6).map((part) => db.insert(gridPoints).values(part.map((p) => ({ scanId: scan.id!, ...p })))),
  ]);
  void rest;
  return inserted[0]!;
}

export async function getGridScan(db: Db, id: string): Promise<{ scan: GridScanRow; points: GridPointRow[] } | null> {
  const [rows, points] = await db.batch([
    db.select().from(gridScans).where(eq(gridScans.id, id)).limit(1),
    db.select().from(gridPoints).where(eq(gridPoints.scanId, id)).orderBy(asc(gridPoints.idx)),
  ]);
  return rows[0] ? { scan: rows[0], points } : null;
}

export async function scanIdByToken(db: Db, token: string): Promise<{ id: string; version: number } | null> {
  const rows = await db.select({ id: gridScans.id, version: gridScans.version }).from(gridScans).where(eq(gridScans.shareToken, token)).limit(1);
  return rows[0] ?? null;
}

function ownerWhere(owner: RankOwner) {
  return owner.kind === "own" ? and(eq(gridScans.userId, owner.userId), eq(gridScans.kind, "own")) : eq(gridScans.prospectId, owner.prospectId);
}

/** A business's scans, newest first, optionally of one keyword. */
export async function listGridScans(db: Db, owner: RankOwner, keyword?: string, limit = 100): Promise<GridScanRow[]> {
  const where = keyword ? and(ownerWhere(owner), eq(gridScans.keyword, keyword)) : ownerWhere(owner);
  return db.select().from(gridScans).where(where).orderBy(desc(gridScans.createdAt)).limit(limit);
}

/** The scan before this one of the same business and keyword. */
export async function previousGridScan(db: Db, scan: GridScanRow): Promise<GridScanRow | null> {
  const owner: RankOwner = scan.kind === "own" ? { kind: "own", userId: scan.userId } : { kind: "prospect", prospectId: scan.prospectId ?? "" };
  return newestRow(db, gridScans, and(ownerWhere(owner), eq(gridScans.keyword, scan.keyword), lt(gridScans.createdAt, scan.createdAt)), gridScans.createdAt);
}

/** The prospect's newest finished scan (the report's "Local visibility"). */
export async function latestFinishedProspectScan(db: Db, prospectId: string): Promise<GridScanRow | null> {
  return newestRow(db, gridScans, and(eq(gridScans.prospectId, prospectId), eq(gridScans.status, "done")), gridScans.finishedAt);
}

/**
 * A grid point as a job: a delivery takes a message's points pending, retrying, or running under a claim older than
 * its stale cut (a worker that died). A point another delivery has, or that is finished, is left out.
 */
export const gridPointJob = unitJob<typeof gridPoints, number>(gridPoints, gridPoints.idx);

/** The scan marked running with its first claim (a no-op once it runs). */
export function gridScanRunning(db: Db, scanId: string) {
  return scanRunning(db, gridScans, scanId);
}

export async function getGridScanRow(db: Db, id: string): Promise<GridScanRow | null> {
  const rows = await db.select().from(gridScans).where(eq(gridScans.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Stores a point's outcome under its claim: `done` (rank, or null = not in the top 20), `retrying` or `failed` with the reason. */
export function storePoint(
  db: Db,
  scanId: string,
  idx: number,
  claimedAt: string,
  outcome: { status: "done"; rank: number | null; top3: unknown } | { status: "retrying" | "failed"; reason: string },
): Promise<boolean> {
  const set =
    outcome.status === "done"
      ? { status: "done" as const, rank: outcome.rank, top3: JSON.stringify(outcome.top3), reason: null, claimedAt: null, finishedAt: new Date().toISOString() }
      : { status: outcome.status, reason: outcome.reason, claimedAt: null, finishedAt: outcome.status === "failed" ? new Date().toISOString() : null };
  return storeUnit(db, gridPoints, { scanId, key: gridPoints.idx, is: idx }, claimedAt, set);
}

/** Dead letters: the scan's points that never succeeded are failed with the reason (done points are kept). */
export async function failUnfinishedPoints(db: Db, scanId: string, idxs: number[], reason: string): Promise<number> {
  const rows = await db
    .update(gridPoints)
    .set({ status: "failed", reason, claimedAt: null, finishedAt: new Date().toISOString() })
    .where(and(eq(gridPoints.scanId, scanId), inArray(gridPoints.idx, idxs), inArray(gridPoints.status, [...UNFINISHED])))
    .returning({ idx: gridPoints.idx });
  return rows.length;
}

/**
 * After a point landed: the scan's version moves (the shared page's cache key), and it is done once no point is
 * pending, running or waiting for its retry. Answers the scan as it now is.
 */
export function touchGridScan(db: Db, scanId: string): Promise<GridScanRow | null> {
  return touchScan(db, gridScans, gridPoints, scanId, { version: sql`${gridScans.version} + 1` });
}

/**
 * Unfinished points of scans made before `before` (a lost message, a worker that died, a retry whose message was
 * lost): the cron sends them again; the claim keeps a point that answered meanwhile from being searched again.
 */
export function stalePoints(db: Db, before: string, limit = 500): Promise<Array<{ scanId: string; idx: number }>> {
  return staleUnits(db, gridScans, gridPoints, { idx: gridPoints.idx }, before, limit);
}

export async function prospectById(db: Db, id: string) {
  const rows = await db.select().from(prospects).where(eq(prospects.id, id)).limit(1);
  return rows[0] ?? null;
}

// ——— tracked keywords ———

export function ownerKeyOf(owner: RankOwner): string {
  return owner.kind === "own" ? `own:${owner.userId}` : `prospect:${owner.prospectId}`;
}

/** The keywords this user tracks (their own business's and, for admins, the prospects' they added). */
export async function countTrackedKeywords(db: Db, userId: string): Promise<number> {
  return Number(await db.$count(trackedKeywords, eq(trackedKeywords.userId, userId)));
}

/** New pending checks, one per tracked keyword matching `where` (insert … select names every column, in order). */
function newChecksOf(db: Db, id: SQL, createdAt: string, where: SQL | undefined) {
  return db
    .select({
      id: sql<string>`${id}`.as("id"),
      keywordId: trackedKeywords.id,
      // In the table's column order (drizzle's insert-select checks it): the job columns follow the status.
      status: sql<"pending">`'pending'`.as("status"),
      attempts: sql<number>`0`.as("attempts"),
      claimedAt: sql<null>`null`.as("claimed_at"),
      mapStatus: sql<"pending">`'pending'`.as("map_status"),
      mapRank: sql<null>`null`.as("map_rank"),
      organicStatus: sql<"pending">`'pending'`.as("organic_status"),
      organicRank: sql<null>`null`.as("organic_rank"),
      reason: sql<null>`null`.as("reason"),
      createdAt: sql<string>`${createdAt}`.as("created_at"),
      checkedAt: sql<null>`null`.as("checked_at"),
    })
    .from(trackedKeywords)
    .where(where);
}

/**
 * Adds the keyword with its first check (enqueued by the caller at once): null when the business tracks it already.
 * `last_check_at` is set now, so the cron's next enqueue is one period later.
 */
export async function insertTrackedKeyword(db: Db, row: typeof trackedKeywords.$inferInsert & { id: string }, checkId: string): Promise<TrackedKeywordRow | null> {
  const [inserted] = await db.batch([
    db.insert(trackedKeywords).values(row).onConflictDoNothing().returning(),
    // Only when this row was inserted (not a keyword tracked already).
    db.insert(keywordChecks).select(newChecksOf(db, sql`${checkId}`, row.lastCheckAt ?? "", eq(trackedKeywords.id, row.id))),
  ]);
  return inserted[0] ?? null;
}

export async function listTrackedKeywords(db: Db, owner: RankOwner): Promise<TrackedKeywordRow[]> {
  return db.select().from(trackedKeywords).where(eq(trackedKeywords.ownerKey, ownerKeyOf(owner))).orderBy(asc(trackedKeywords.createdAt));
}

export async function getTrackedKeyword(db: Db, id: string): Promise<TrackedKeywordRow | null> {
  const rows = await db.select().from(trackedKeywords).where(eq(trackedKeywords.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function patchTrackedKeyword(db: Db, id: string, patch: { paused?: boolean; frequency?: "daily" | "weekly" }): Promise<TrackedKeywordRow | null> {
  const rows = await db.update(trackedKeywords).set(patch).where(eq(trackedKeywords.id, id)).returning();
  return rows[0] ?? null;
}

export async function deleteTrackedKeyword(db: Db, id: string): Promise<void> {
  await db.delete(trackedKeywords).where(eq(trackedKeywords.id, id));
}

/** The checks of these keywords, oldest first. */
export async function checksOf(db: Db, keywordIds: readonly string[]): Promise<KeywordCheckRow[]> {
  const out: KeywordCheckRow[] = [];
  for (const part of chunks(keywordIds, 90)) {
    out.push(...(await db.select().from(keywordChecks).where(inArray(keywordChecks.keywordId, part)).orderBy(asc(keywordChecks.createdAt))));
  }
  return out;
}

/** The alerts recorded for these keywords (the dashboard's), newest first. */
export async function alertsOf(db: Db, keywordIds: readonly string[]): Promise<RankAlertRow[]> {
  const out: RankAlertRow[] = [];
  for (const part of chunks(keywordIds, 90)) {
    out.push(...(await db.select().from(rankAlerts).where(inArray(rankAlerts.keywordId, part)).orderBy(desc(rankAlerts.createdAt))));
  }
  return out;
}

/** Keywords the cron may find due: not paused, never checked or checked before `cut` (the shortest period's). */
export async function dueCandidates(db: Db, cut: string, limit: number): Promise<TrackedKeywordRow[]> {
  return db
    .select()
    .from(trackedKeywords)
    .where(and(eq(trackedKeywords.paused, false), or(isNull(trackedKeywords.lastCheckAt), lte(trackedKeywords.lastCheckAt, cut))))
    .orderBy(asc(trackedKeywords.lastCheckAt))
    .limit(limit);
}

/** A tracked keyword's period as a job: claimed by moving `last_check_at` while it is still due. */
const dueKeywordJob = defineJob({
  table: trackedKeywords,
  rows: (ids: readonly string[], due: SQL | undefined) => and(inArray(trackedKeywords.id, [...ids]), eq(trackedKeywords.paused, false), due),
  set: (now) => ({ lastCheckAt: now }),
});

/**
 * Creates one check for each of these keywords that is still due (the claim on `last_check_at` against each
 * frequency's cut): the claim, the checks' rows and their ids in one batch (one transaction). A second cron run
 * finds `last_check_at` moved and creates nothing. At most 90 ids.
 */
export async function createDueChecks(db: Db, ids: readonly string[], now: string, cuts: { daily: string; weekly: string }): Promise<string[]> {
  if (ids.length === 0) return [];
  const due = or(
    isNull(trackedKeywords.lastCheckAt),
    and(eq(trackedKeywords.frequency, "daily"), lte(trackedKeywords.lastCheckAt, cuts.daily)),
    and(eq(trackedKeywords.frequency, "weekly"), lte(trackedKeywords.lastCheckAt, cuts.weekly)),
  );
  const [, , made] = await db.batch([
    claim(db, dueKeywordJob, [ids, due], { now }),
    db.insert(keywordChecks).select(
      newChecksOf(
        db,
        sql`lower(hex(randomblob(16)))`,
        now,
        and(
          inArray(trackedKeywords.id, [...ids]),
          eq(trackedKeywords.lastCheckAt, now),
          sql`not exists (select 1 from ${keywordChecks} where ${keywordChecks.keywordId} = ${trackedKeywords.id} and ${keywordChecks.createdAt} = ${now})`,
        ),
      ),
    ),
    db
      .select({ id: keywordChecks.id })
      .from(keywordChecks)
      .where(and(inArray(keywordChecks.keywordId, [...ids]), eq(keywordChecks.createdAt, now))),
  ]);
  return made.map((r) => r.id);
}

export type ClaimedCheck = { check: KeywordCheckRow; keyword: TrackedKeywordRow };

/** A keyword check as a job (claimed as a grid point is). */
export const keywordCheckJob = defineJob({
  table: keywordChecks,
  rows: (checkId: string) => eq(keywordChecks.id, checkId),
  status: { column: keywordChecks.status, from: ["pending", "retrying"], to: "running" },
  claimedAt: keywordChecks.claimedAt,
  attempts: keywordChecks.attempts,
});

/** Stores one part of a check (map pack or organic) as soon as its search answered, under the claim. */
export async function storeCheckPart(db: Db, checkId: string, claimedAt: string, part: "map" | "organic", result: { status: "found" | "not_found"; rank: number | null }): Promise<void> {
  const set = part === "map" ? { mapStatus: result.status, mapRank: result.rank } : { organicStatus: result.status, organicRank: result.rank };
  await db
    .update(keywordChecks)
    .set(set)
    .where(and(eq(keywordChecks.id, checkId), eq(keywordChecks.status, "running"), eq(keywordChecks.claimedAt, claimedAt)));
}

/** A failed check's parts that had not answered are failed (the answered part is kept). */
function failPendingParts() {
  return {
    mapStatus: sql<"failed">`case when ${keywordChecks.mapStatus} = 'pending' then 'failed' else ${keywordChecks.mapStatus} end`,
    organicStatus: sql<"failed">`case when ${keywordChecks.organicStatus} = 'pending' then 'failed' else ${keywordChecks.organicStatus} end`,
  };
}

/** Ends a delivery of a check: `done`, `retrying` (the message comes back) or `failed` (the parts not done fail). */
export async function finishCheck(db: Db, checkId: string, claimedAt: string, status: "done" | "retrying" | "failed", reason: string | null): Promise<KeywordCheckRow | null> {
  const now = new Date().toISOString();
  const failParts = status === "failed" ? failPendingParts() : {};
  const rows = await db
    .update(keywordChecks)
    .set({ status, reason, claimedAt: null, checkedAt: status === "retrying" ? null : now, ...failParts })
    .where(and(eq(keywordChecks.id, checkId), eq(keywordChecks.status, "running"), eq(keywordChecks.claimedAt, claimedAt)))
    .returning();
  return rows[0] ?? null;
}

/** Dead letters: checks that never succeeded are failed with the reason (their finished parts are kept). */
export async function failUnfinishedChecks(db: Db, checkIds: readonly string[], reason: string): Promise<number> {
  const rows = await db
    .update(keywordChecks)
    .set({
      status: "failed",
      reason,
      claimedAt: null,
      checkedAt: new Date().toISOString(),
      ...failPendingParts(),
    })
    .where(and(inArray(keywordChecks.id, [...checkIds]), inArray(keywordChecks.status, [...UNFINISHED])))
    .returning({ id: keywordChecks.id });
  return rows.length;
}

/** Unfinished checks made before `before`: the cron sends them again (claims keep them single). */
export async function staleChecks(db: Db, before: string, limit = 500): Promise<string[]> {
  const rows = await db
    .select({ id: keywordChecks.id })
    .from(keywordChecks)
    .where(and(inArray(keywordChecks.status, [...UNFINISHED]), lt(keywordChecks.createdAt, before)))
    .limit(limit);
  return rows.map((r) => r.id);
}

// ——— alerts ———

export async function recordAlert(db: Db, alert: typeof rankAlerts.$inferInsert): Promise<void> {
  await db.insert(rankAlerts).values(alert).onConflictDoNothing();
}

/** Users with alerts not mailed yet. */
export async function usersWithUnmailedAlerts(db: Db, limit = 200): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: rankAlerts.userId }).from(rankAlerts).where(isNull(rankAlerts.mailedAt)).limit(limit);
  return rows.map((r) => r.userId);
}

/** Records today's digest for this user (its row is the day's one ticket): false when one went out today already. */
export async function recordDigestDay(db: Db, userId: string, day: string): Promise<boolean> {
  const rows = await db.insert(rankAlertDigests).values({ userId, day }).onConflictDoNothing().returning({ userId: rankAlertDigests.userId });
  return rows.length > 0;
}

/** The user's unmailed alerts with their keywords, marked mailed in the same round trip. */
export async function takeUnmailedAlerts(db: Db, userId: string, now: string): Promise<Array<{ alert: RankAlertRow; keyword: string; business: string }>> {
  const [rows] = await db.batch([
    db
      .select({ alert: rankAlerts, keyword: trackedKeywords.keyword, business: trackedKeywords.business })
      .from(rankAlerts)
      .innerJoin(trackedKeywords, eq(trackedKeywords.id, rankAlerts.keywordId))
      .where(and(eq(rankAlerts.userId, userId), isNull(rankAlerts.mailedAt)))
      .orderBy(asc(rankAlerts.createdAt)),
    db.update(rankAlerts).set({ mailedAt: now }).where(and(eq(rankAlerts.userId, userId), isNull(rankAlerts.mailedAt))),
  ]);
  return rows;
}

// ——— the agency's clients view ———

