// The 24-hour web search cache in D1: one row per normalised keyword + location; only successes are written.
import { and, eq, gt } from "drizzle-orm";
import type { SearchResult } from "./rules/search-tools";
import type { Db } from "../../platform/db/client";
import { searchCache } from "./tables";

export const SEARCH_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

export async function readCachedSearch(db: Db, key: string, now = Date.now()): Promise<SearchResult[] | null> {
  const since = new Date(now - SEARCH_CACHE_TTL_MS).toISOString();
  const row = await db
    .select({ results: searchCache.results })
    .from(searchCache)
    .where(and(eq(searchCache.key, key), gt(searchCache.fetchedAt, since)))
    .get();
  if (!row) return null;
  try {
    const parsed = JSON.parse(row.results);
    return Array.isArray(parsed) && parsed.length > 0 ? (parsed as SearchResult[]) : null;
  } catch {
    return null;
  }
}

export async function writeCachedSearch(
  db: Db,
  entry: { key: string; keyword: string; location: string; results: SearchResult[] },
  now = Date.now(),
): Promise<void> {
  const fetchedAt = new Date(now).toISOString();
  const results = JSON.stringify(entry.results);
  await db
    .insert(searchCache)
    .values({ key: entry.key, keyword: entry.keyword, location: entry.location, results, fetchedAt })
    .onConflictDoUpdate({ target: searchCache.key, set: { results, fetchedAt, keyword: entry.keyword, location: entry.location } });
}
