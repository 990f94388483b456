// Reads several parts want in one D1 round trip (issue 41: a client's row updated after an event in at most two). A
// part gives its queries and how it reads their results; `runReads` puts every part's queries in one batch and hands
// each part its own results. A batch answers rows as objects keyed by column name: a query whose columns share a name
// (a join selecting two tables' `id`) needs aliases, or its own round trip.
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

export type BatchedRead<T> = { queries: BatchItem<"sqlite">[]; read: (results: unknown[]) => T };

/** A part's read: its queries (in order) and what it makes of their results (in the same order). */
export function batchedRead<const Q extends readonly BatchItem<"sqlite">[], T>(queries: Q, read: (results: { -readonly [K in keyof Q]: Awaited<Q[K]> }) => T): BatchedRead<T> {
  return { queries: [...queries], read: read as (results: unknown[]) => T };
}

/** Every part's queries in one batch: one round trip, each part's answer in the order given. */
export async function runReads<T extends readonly BatchedRead<unknown>[]>(db: Db, ...reads: T): Promise<{ -readonly [K in keyof T]: T[K] extends BatchedRead<infer R> ? R : never }> {
  const all = reads.flatMap((r) => r.queries);
  const results = all.length ? ((await db.batch(all as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[]) : [];
  let at = 0;
  return reads.map((r) => {
    const mine = results.slice(at, at + r.queries.length);
    at += r.queries.length;
    return r.read(mine);
  }) as never;
}
