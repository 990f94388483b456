// A scan and its units (a grid scan's points, a citation scan's checks): the scan is done once none of its units is
// left to do, and the cron sends again the unfinished units of scans old enough for their message to be lost.
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { defineJob } from "./claim";

/** The units' statuses (UNIT_STATUSES) that still wait for work. */
export const UNFINISHED_UNIT_STATUSES = ["pending", "running", "retrying"] as const;

type ScanTable = SQLiteTable & { id: SQLiteColumn; status: SQLiteColumn; createdAt: SQLiteColumn; finishedAt: SQLiteColumn };
type UnitTable = SQLiteTable & { scanId: SQLiteColumn; status: SQLiteColumn; claimedAt: SQLiteColumn; attempts: SQLiteColumn };

/**
 * A unit as a job, by its scan and its key within it (`key`: a point's idx, a check's source): a delivery takes a
 * message's units pending, retrying, or running under a claim older than its stale cut (a worker that died).
 */
export function unitJob<T extends UnitTable, U>(units: T, key: SQLiteColumn) {
  return defineJob({
    table: units,
    rows: (scanId: string, keys: U[]) => and(eq(units.scanId, scanId), inArray(key, keys)),
    status: { column: units.status, from: ["pending", "retrying"], to: "running" },
    claimedAt: units.claimedAt,
    attempts: units.attempts,
  });
}

/** The scan marked running with its first claim (a no-op once it runs); goes in the claim's batch. */
export function scanRunning(db: Db, scans: ScanTable, scanId: string) {
  return db
    .update(scans as SQLiteTable)
    .set({ status: "running" } as Record<string, string>)
    .where(and(eq(scans.id, scanId), eq(scans.status, "queued")));
}

/** Writes a unit's outcome under its own claim only (still running, the same stamp): a late delivery changes nothing. Whether it was written. */
export async function storeUnit<T extends UnitTable>(db: Db, units: T, unit: { scanId: string; key: SQLiteColumn; is: unknown }, claimedAt: string, set: SQLiteUpdateSetSource<T>): Promise<boolean> {
  const rows = await db
    .update(units as SQLiteTable)
    .set(set as SQLiteUpdateSetSource<SQLiteTable>)
    .where(and(eq(units.scanId, unit.scanId), eq(unit.key, unit.is), eq(units.status, "running"), eq(units.claimedAt, claimedAt)))
    .returning({ scanId: units.scanId });
  return rows.length > 0;
}

/**
 * After units landed: the scan is `running` while a unit is unfinished, else `done` with its finish time (set once);
 * `also` sets more in the same statement. Answers the scan as it now is.
 */
export async function touchScan<S extends ScanTable>(db: Db, scans: S, units: UnitTable, scanId: string, also: Record<string, SQL> = {}): Promise<S["$inferSelect"] | null> {
  const unfinished = sql`exists (select 1 from ${units} where ${units.scanId} = ${scanId} and ${units.status} in ('pending', 'running', 'retrying'))`;
  const now = new Date().toISOString();
  const rows = await db
    .update(scans as SQLiteTable)
    .set({
      ...also,
      status: sql`case when ${unfinished} then 'running' else 'done' end`,
      finishedAt: sql`case when ${unfinished} then null else coalesce(${scans.finishedAt}, ${now}) end`,
    } as Record<string, SQL>)
    .where(eq(scans.id, scanId))
    .returning();
  return (rows[0] as S["$inferSelect"] | undefined) ?? null;
}

/** Unfinished units (their scan id and `pick`) of scans made before `before`: the cron sends them again; claims keep them single. */
export async function staleUnits<P extends Record<string, SQLiteColumn>>(
  db: Db,
  scans: ScanTable,
  units: UnitTable,
  pick: P,
  before: string,
  limit: number,
): Promise<Array<{ scanId: string } & { [K in keyof P]: P[K]["_"]["data"] }>> {
  const rows = await db
    .select({ scanId: units.scanId, ...pick })
    .from(units as SQLiteTable)
    .innerJoin(scans as SQLiteTable, eq(scans.id, units.scanId))
    .where(and(inArray(units.status, [...UNFINISHED_UNIT_STATUSES]), lt(scans.createdAt, before)))
    .limit(limit);
  return rows as Array<{ scanId: string } & { [K in keyof P]: P[K]["_"]["data"] }>;
}

/** What a delivery of a scan's units answers: acked, or sent again after `delaySeconds` for `reason`. */
export type UnitsOutcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number; reason: string };

/**
 * A delivery's claimed units run side by side (`run` answers a reason when its unit wants another try, else null),
 * then `after` settles the scan once; the message is retried after `retryDelaySeconds` when any unit asked.
 */
export async function runUnits<C>(claimed: C[], run: (claim: C) => Promise<string | null>, after: () => Promise<void>, retryDelaySeconds: number): Promise<UnitsOutcome> {
  if (claimed.length === 0) return { kind: "ack" };
  const reasons = await Promise.all(claimed.map(run));
  await after();
  const reason = reasons.find((r) => r !== null);
  return reason ? { kind: "retry", delaySeconds: retryDelaySeconds, reason } : { kind: "ack" };
}
