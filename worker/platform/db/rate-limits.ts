// Fixed-window counters in D1: one upsert per counted event.
import { sql, type SQL } from "drizzle-orm";
import { firstRow, type Db } from "./client";
import { rateLimits } from "./tables";

export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

function windowStart(windowSeconds: number, nowMs: number) {
  return Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
}

/** How many events the key has in its current window, without counting one. */
export async function currentCount(db: Db, limit: Limit, nowMs = Date.now()): Promise<number> {
  const row = await firstRow(db, rateLimits, sql`${rateLimits.key} = ${limit.key}`);
  if (!row || row.windowStart !== windowStart(limit.windowSeconds, nowMs)) return 0;
  return row.count;
}

/** Counts one event and returns the count in the window including it. */
export async function countEvent(db: Db, limit: Limit, nowMs = Date.now()): Promise<number> {
  const rows = await countEventQuery(db, limit, nowMs);
  return rows[0]?.count ?? 1;
}

/** The statement `countEvent` runs, for a caller that batches it with other reads (one D1 round trip). */
export function countEventQuery(db: Db, limit: Limit, nowMs = Date.now(), onlyIf?: SQL) {
  const start = windowStart(limit.windowSeconds, nowMs);
  const insert = db.insert(rateLimits);
  // `onlyIf`: counted only when it holds (an event about something that does not exist counts nothing).
  return (
    onlyIf
      ? insert.select(
          db
            .select({ key: sql<string>`${limit.key}`.as("key"), windowStart: sql<number>`${start}`.as("window_start"), count: sql<number>`1`.as("count") })
            .from(sql`(select 1)`)
            .where(onlyIf),
        )
      : insert.values({ key: limit.key, windowStart: start, count: 1 })
  )
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} = ${start} then ${rateLimits.count} + 1 else 1 end`,
        windowStart: start,
      },
    })
    .returning({ count: rateLimits.count });
}

/** Takes back one counted event (an attempt that turned out fine). */
export async function uncountEvent(db: Db, limit: Limit) {
  await db
    .update(rateLimits)
    .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
    .where(sql`${rateLimits.key} = ${limit.key}`);
}

export async function clearKey(db: Db, key: string) {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}

export function retryAfterSeconds(limit: Limit, nowMs = Date.now()) {
  return windowStart(limit.windowSeconds, nowMs) + limit.windowSeconds - Math.floor(nowMs / 1000);
}

/** Adds `amount` to the key's current window (a budget kept as an integer) and returns the new total. */
export async function addToWindow(db: Db, limit: Pick<Limit, "key" | "windowSeconds">, amount: number, nowMs = Date.now()) {
  const start = windowStart(limit.windowSeconds, nowMs);
  const rows = await db
    .insert(rateLimits)
    .values({ key: limit.key, windowStart: start, count: amount })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} = ${start} then ${rateLimits.count} + ${amount} else ${amount} end`,
        windowStart: start,
      },
    })
    .returning({ count: rateLimits.count });
  return rows[0]?.count ?? amount;
}

/** The statement `currentCount` runs, for batching; read the answer with `countInWindow`. */
export function currentCountQuery(db: Db, key: string) {
  return db.select({ windowStart: rateLimits.windowStart, count: rateLimits.count }).from(rateLimits).where(sql`${rateLimits.key} = ${key}`).limit(1);
}

export function countInWindow(row: { windowStart: number; count: number } | undefined, windowSeconds: number, nowMs = Date.now()): number {
  return row && row.windowStart === windowStart(windowSeconds, nowMs) ? row.count : 0;
}

/** The longest window any limit uses; a window that started before now minus this is over for every key. */
export const LONGEST_WINDOW_SECONDS = 86_400;

/** The cron: deletes windows that are over, so anonymous requests cannot grow the table without end. */
export async function deleteExpiredWindows(db: Db, nowMs = Date.now()): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${Math.floor(nowMs / 1000) - LONGEST_WINDOW_SECONDS}`);
}
