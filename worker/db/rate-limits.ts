// Fixed-window counters in D1: one upsert per counted event.
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { rateLimits } from "./schema";

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
  const row = await db.query.rateLimits.findFirst({ where: sql`${rateLimits.key} = ${limit.key}` });
  if (!row || row.windowStart !== windowStart(limit.windowSeconds, nowMs)) return 0;
  return row.count;
}

/** Counts one event and returns the count in the window including it. */
export async function countEvent(db: Db, limit: Limit, nowMs = Date.now()): Promise<number> {
  const start = windowStart(limit.windowSeconds, nowMs);
  const rows = await db
    .insert(rateLimits)
    .values({ key: limit.key, windowStart: start, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} = ${start} then ${rateLimits.count} + 1 else 1 end`,
        windowStart: start,
      },
    })
    .returning({ count: rateLimits.count });
  return rows[0]?.count ?? 1;
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
