// The Google Search Results tool: a live search (SerpAPI) for a keyword and location, kept 24 hours; sample data
// when search is not set up, when the caller's allowance refuses it, or when the live search fails.
import type { Env } from "../../platform/env";
import { getDb } from "../../platform/db/client";
import { reserveCall, userPayer } from "../../platform/metering/meter";
import type { logPaidCall } from "../../platform/metering/usage-log";
import { searchGoogle } from "../../platform/providers/search";
import { readCachedSearch, writeCachedSearch } from "./search-cache";
import {
  buildSampleSearchResults,
  NO_RESULTS_MESSAGE,
  SAMPLE_DATA_WARNING,
  SEARCH_UNAVAILABLE_SAMPLE_WARNING,
  searchCacheKey,
  type GoogleResultsQuery,
  type GoogleResultsResponse,
} from "./rules/search-tools";

export const SEARCH_TOOL_NAME = "Google Search Results";

/** The search's answer for `userId`; a settled search's usage row goes to `logged`. */
export async function googleResults(env: Env, query: GoogleResultsQuery, userId: string, logged: (entry: Parameters<typeof logPaidCall>[1]) => void): Promise<GoogleResultsResponse> {
  const sample = (error: string | null, warning: string = SAMPLE_DATA_WARNING): GoogleResultsResponse => ({
    results: buildSampleSearchResults(query),
    sample: true,
    warning,
    error,
    message: null,
    cached: false,
  });
  // No search key: the customer reads that search isn't available yet (as in the other search tools), never how the
  // server is set up; the spec's "Unable to fetch results" is for a live search that failed.
  if (!env.SERPAPI_KEY) return sample(null, SEARCH_UNAVAILABLE_SAMPLE_WARNING);

  const db = getDb(env);
  const key = searchCacheKey(query);
  const cached = await readCachedSearch(db, key);
  if (cached) return { results: cached, sample: false, warning: null, error: null, message: null, cached: true };

  // A live search is paid: reserved from the caller's allowance first; refused, the sample data says why.
  const reserved = await reserveCall(env, await userPayer(env, db, userId), { kind: "search" });
  if (!reserved.ok) return sample(reserved.refusal.message);
  const outcome = await searchGoogle(env, query);
  // The provider bills an answered search (results or none); a failure that never reached an answer costs nothing.
  if (outcome.ok || outcome.empty) {
    const usage = { kind: "search" as const, calls: 1 };
    await reserved.ticket.settle(usage);
    logged({ userId, toolName: SEARCH_TOOL_NAME, model: "serpapi", usage, detail: { cached: false } });
  } else {
    await reserved.ticket.release();
  }
  if (!outcome.ok && outcome.empty) return { results: [], sample: false, warning: null, error: outcome.error, message: NO_RESULTS_MESSAGE, cached: false };
  if (!outcome.ok) return sample(outcome.error);
  // Only a real answer with results is kept; failures and empties are asked again next time.
  await writeCachedSearch(db, { key, keyword: query.keyword, location: query.location, results: outcome.results });
  return { results: outcome.results, sample: false, warning: null, error: null, message: null, cached: false };
}
