// The one claim of the job engine: a compare-and-set over any job table, so two deliveries of a message never do one
// item twice. A capability declares its job table once (which rows a claim asks for, its status words, its claim stamp
// and attempt columns); `claim` builds the single UPDATE ... WHERE <free> RETURNING that takes the free rows.
import { and, eq, getTableColumns, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateBase, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";

/** A job table: how its rows are claimed. `K` are the keys a claim is called with (an id; a scan and a few of its items). */
export type Job<T extends SQLiteTable, K extends unknown[]> = {
  table: T;
  /** The rows a claim asks for (and any condition of theirs); the claim takes those of them that are free. */
  rows: (...keys: K) => SQL | undefined;
  /** The status compare-and-set: a row in one of `from` moves to `to` (a word, or an expression of the row; none: unchanged). */
  status?: { column: SQLiteColumn; from: readonly string[]; to?: string | SQL };
  /** The claim stamp, set to the claim's time. A row held under a stamp older than the claim's `staleBefore` is free again. */
  claimedAt?: SQLiteColumn;
  /** How a held claim goes stale: also at `staleBefore` itself (`orEqual`), also with no stamp at all (`orNull`). */
  stale?: { orEqual?: boolean; orNull?: boolean };
  /** Counted up by one with each claim. */
  attempts?: SQLiteColumn;
  /** Other values the claim writes (updated_at, a mail stamp), from the claim's time and keys. */
  set?: (now: string, ...keys: K) => SQLiteUpdateSetSource<T>;
};

/** The claim's time and, for claims that expire, the cut before which a held claim counts as abandoned. */
export type ClaimAt = { now?: string; staleBefore?: string };

/** The claim's statement: await it for the rows won, or put it first in a `db.batch` with what must go with it. */
export type ClaimQuery<T extends SQLiteTable> = SQLiteUpdateBase<T, "async", unknown, undefined, T["$inferSelect"]>;

/** Declares a job table (the types of its keys inferred from `rows`). */
export function defineJob<T extends SQLiteTable, K extends unknown[]>(job: Job<T, K>): Job<T, K> {
  return job;
}

function keyOf(table: SQLiteTable, column: SQLiteColumn): string {
  const found = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!found) throw new Error(`claim: column ${column.name} is not a column of this job table`);
  return found[0];
}

function held(job: Job<SQLiteTable, never[]>, staleBefore: string): SQL | undefined {
  const stamp = job.claimedAt!;
  const old = job.stale?.orEqual ? lte(stamp, staleBefore) : lt(stamp, staleBefore);
  return job.stale?.orNull ? or(isNull(stamp), old) : old;
}

/** When a row is free to take: in a `from` status, or held under a stale claim (with a status, only while in `to`). */
function free(job: Job<SQLiteTable, never[]>, staleBefore: string | undefined): SQL | undefined {
  const expires = staleBefore !== undefined && job.claimedAt !== undefined;
  if (!job.status) return expires ? held(job, staleBefore) : undefined;
  const { column, from, to } = job.status;
  const waiting = from.length === 1 ? eq(column, from[0]) : inArray(column, [...from]);
  return expires && typeof to === "string" ? or(waiting, and(eq(column, to), held(job, staleBefore))) : waiting;
}

/** Claims the free rows among `keys`' rows by compare-and-set; resolves to the rows won (as they are after the claim). */
export function claim<T extends SQLiteTable, K extends unknown[]>(db: Db, job: Job<T, K>, keys: K, at: ClaimAt = {}): ClaimQuery<T> {
  const now = at.now ?? new Date().toISOString();
  const { table } = job;
  const values: Record<string, unknown> = {};
  if (job.status?.to !== undefined) values[keyOf(table, job.status.column)] = job.status.to;
  if (job.claimedAt) values[keyOf(table, job.claimedAt)] = now;
  if (job.attempts) values[keyOf(table, job.attempts)] = sql`${job.attempts} + 1`;
  Object.assign(values, job.set?.(now, ...keys));
  const untyped = job as unknown as Job<SQLiteTable, never[]>;
  return (db as unknown as Db)
    .update(table as SQLiteTable)
    .set(values)
    .where(and(job.rows(...keys), free(untyped, at.staleBefore)))
    .returning() as unknown as ClaimQuery<T>;
}
