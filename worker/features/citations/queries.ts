// Citation Tracker (issue 27): scans, each source's check (claimed per delivery by compare-and-set, its finished
// searches kept so a retry never searches twice), and the businesses the cron re-scans monthly.
import { and, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { newestRow, type Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { scanRunning, staleUnits, storeUnit, touchScan, unitJob } from "../../platform/jobs/scans";
import { citationChecks, citationScans, citationTracking } from "./tables";

export type CitationScanRow = typeof citationScans.$inferSelect;
export type CitationCheckRow = typeof citationChecks.$inferSelect;
export type CitationTrackingRow = typeof citationTracking.$inferSelect;

const UNFINISHED = ["pending", "running", "retrying"] as const;

export type CitationOwner = { kind: "own"; userId: string } | { kind: "prospect"; prospectId: string };

export function citationOwnerKey(owner: CitationOwner): string {
  return owner.kind === "own" ? `own:${owner.userId}` : `prospect:${owner.prospectId}`;
}

/** The scan with its checks (sources answered at once, as the manual ones and Google's from the audit, come `done`). */
export async function createCitationScan(
  db: Db,
  scan: typeof citationScans.$inferInsert,
  checks: Array<{ source: string; status: "pending" | "done"; result: string | null }>,
): Promise<void> {
  const now = new Date().toISOString();
  const rows = checks.map((c) => ({ scanId: scan.id!, source: c.source, status: c.status, result: c.result, finishedAt: c.status === "done" ? now : null }));
  // 5 bound parameters a row: 15 rows a statement stays under D1's 100.
  const inserts = [];
  for (let i = 0; i < rows.length; i += 15) inserts.push(db.insert(citationChecks).values(rows.slice(i, i + 15)));
  await db.batch([db.insert(citationScans).values(scan), ...inserts]);
}

export async function getCitationScanRow(db: Db, id: string): Promise<CitationScanRow | null> {
  const rows = await db.select().from(citationScans).where(eq(citationScans.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function getCitationScan(db: Db, id: string): Promise<{ scan: CitationScanRow; checks: CitationCheckRow[] } | null> {
  const [scans, checks] = await db.batch([db.select().from(citationScans).where(eq(citationScans.id, id)).limit(1), db.select().from(citationChecks).where(eq(citationChecks.scanId, id))]);
  const scan = scans[0];
  return scan ? { scan, checks } : null;
}

/** A business's scans, newest first. */
export async function listCitationScans(db: Db, ownerKey: string, limit = 24): Promise<CitationScanRow[]> {
  return db.select().from(citationScans).where(eq(citationScans.ownerKey, ownerKey)).orderBy(desc(citationScans.createdAt)).limit(limit);
}

export async function checksOfScans(db: Db, scanIds: string[]): Promise<CitationCheckRow[]> {
  if (scanIds.length === 0) return [];
  const out: CitationCheckRow[] = [];
  for (let i = 0; i < scanIds.length; i += 90) out.push(...(await db.select().from(citationChecks).where(inArray(citationChecks.scanId, scanIds.slice(i, i + 90)))));
  return out;
}

/** The finished scan of the same business made before this one. */
export async function previousCitationScan(db: Db, scan: Pick<CitationScanRow, "ownerKey" | "createdAt" | "id">): Promise<CitationScanRow | null> {
  return newestRow(db, citationScans, and(eq(citationScans.ownerKey, scan.ownerKey), lt(citationScans.createdAt, scan.createdAt), eq(citationScans.status, "done")), citationScans.createdAt);
}

/** The newest finished scan of a business (the report's "Listings"). */
export async function latestFinishedCitationScan(db: Db, ownerKey: string): Promise<CitationScanRow | null> {
  return newestRow(db, citationScans, and(eq(citationScans.ownerKey, ownerKey), eq(citationScans.status, "done")), citationScans.createdAt);
}

/** The id of a prospect's newest finished scan, as a subquery (`prospectId` a value or a subquery). */
function latestProspectScanId(prospectId: string | SQL): SQL {
  return sql`(select ${citationScans.id} from ${citationScans} where ${citationScans.ownerKey} = 'prospect:' || ${prospectId} and ${citationScans.status} = 'done' order by ${citationScans.createdAt} desc limit 1)`;
}

/** The prospect's newest finished scan (the report's "Listings"), for a batch. */
export function latestProspectScanQuery(db: Db, prospectId: string | SQL) {
  return db.select().from(citationScans).where(eq(citationScans.id, latestProspectScanId(prospectId))).limit(1);
}

/** The checks of the prospect's newest finished scan, for a batch (the report's prompt and the chats). */
export function latestProspectChecksQuery(db: Db, prospectId: string | SQL) {
  return db.select().from(citationChecks).where(eq(citationChecks.scanId, latestProspectScanId(prospectId)));
}

/** A user's own scans made since `since` (the plan's limit). */
export async function countOwnScansSince(db: Db, userId: string, since: string): Promise<number> {
  return Number(await db.$count(citationScans, and(eq(citationScans.userId, userId), eq(citationScans.kind, "own"), gte(citationScans.createdAt, since))));
}

/** A source's check as a job: pending or retrying → running, taken again when its claim went stale. */
export const citationCheckJob = unitJob<typeof citationChecks, string>(citationChecks, citationChecks.source);

/** The scan marked running with its first claim (a no-op once it runs). */
export function citationScanRunning(db: Db, scanId: string) {
  return scanRunning(db, citationScans, scanId);
}

/** The searches that answered so far, under the claim (a retry reads them instead of searching again). */
export async function saveCheckProgress(db: Db, scanId: string, source: string, claimedAt: string, progress: unknown): Promise<void> {
  await db
    .update(citationChecks)
    .set({ progress: JSON.stringify(progress) })
    .where(and(eq(citationChecks.scanId, scanId), eq(citationChecks.source, source), eq(citationChecks.status, "running"), eq(citationChecks.claimedAt, claimedAt)));
}

/** Stores a check's outcome under its claim: `done` with its result, `retrying` or `failed` with the reason. */
export function storeCheck(
  db: Db,
  scanId: string,
  source: string,
  claimedAt: string,
  outcome: { status: "done" | "failed"; result: unknown; reason?: string } | { status: "retrying"; reason: string },
): Promise<boolean> {
  const now = new Date().toISOString();
  const set =
    outcome.status === "retrying"
      ? { status: "retrying" as const, reason: outcome.reason, claimedAt: null }
      : { status: outcome.status, result: JSON.stringify(outcome.result), reason: outcome.reason ?? null, claimedAt: null, finishedAt: now };
  return storeUnit(db, citationChecks, { scanId, key: citationChecks.source, is: source }, claimedAt, set);
}

/** Dead letters: the message's sources that never finished are failed with their result (an `unknown` verdict). */
export async function failUnfinishedChecks(db: Db, scanId: string, results: Array<{ source: string; result: unknown }>, reason: string): Promise<number> {
  let changed = 0;
  for (const r of results) {
    const rows = await db
      .update(citationChecks)
      .set({ status: "failed", result: JSON.stringify(r.result), reason, claimedAt: null, finishedAt: new Date().toISOString() })
      .where(and(eq(citationChecks.scanId, scanId), eq(citationChecks.source, r.source), inArray(citationChecks.status, [...UNFINISHED])))
      .returning({ source: citationChecks.source });
    changed += rows.length;
  }
  return changed;
}

/** The scan is done once no source is pending, running or waiting for its retry. Answers the scan as it now is. */
export function touchCitationScan(db: Db, scanId: string): Promise<CitationScanRow | null> {
  return touchScan(db, citationScans, citationChecks, scanId);
}

/** Unfinished checks of scans made before `before` (a lost message): the cron sends them again; claims keep them single. */
export function staleCitationChecks(db: Db, before: string, limit = 500): Promise<Array<{ scanId: string; source: string }>> {
  return staleUnits(db, citationScans, citationChecks, { source: citationChecks.source }, before, limit);
}

// ——— monthly tracking ———

/** The business is tracked from its first scan on; a later scan moves its date. */
export async function trackCitations(db: Db, row: { ownerKey: string; kind: "own" | "prospect"; userId: string; prospectId: string | null; lastScanAt: string }): Promise<void> {
  await db
    .insert(citationTracking)
    .values(row)
    .onConflictDoUpdate({ target: citationTracking.ownerKey, set: { lastScanAt: row.lastScanAt } });
}

export async function dueCitationTracking(db: Db, before: string, limit: number): Promise<CitationTrackingRow[]> {
  return db.select().from(citationTracking).where(lt(citationTracking.lastScanAt, before)).orderBy(citationTracking.lastScanAt).limit(limit);
}

/** A tracked business's month as a job: `last_scan_at` moves only if it is still what the cron read, so one cron run (of several) wins it. */
export const citationTrackingJob = defineJob({
  table: citationTracking,
  rows: (ownerKey: string, seen: string) => and(eq(citationTracking.ownerKey, ownerKey), eq(citationTracking.lastScanAt, seen)),
  set: (now) => ({ lastScanAt: now }),
});

// ——— the agency's clients view ———

