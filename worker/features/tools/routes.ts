// /api/tools: the Google Search Results search (server-side, 24-hour cache) and the Local Services sample builder.
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import type { ZodType } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { readCachedSearch, writeCachedSearch } from "./search-cache";
import {
  buildLocalServiceListings,
  buildSampleSearchResults,
  GoogleResultsQuery,
  LocalServicesQuery,
  LOCAL_SERVICES_SAMPLE_NOTE,
  NO_RESULTS_MESSAGE,
  SAMPLE_DATA_WARNING,
  SEARCH_UNAVAILABLE_SAMPLE_WARNING,
  SEARCH_FIELDS_REQUIRED,
  searchCacheKey,
  type GoogleResultsResponse,
  type LocalServicesResponse,
} from "./rules/search-tools";
import { apiError, ErrorCode, type FieldErrors } from "../../platform/errors";
import { reserveCall, userPayer } from "../../platform/metering/meter";
import { logPaidCall } from "../../platform/metering/usage-log";
import { searchGoogle } from "../../platform/providers/search";
import { paidFeature } from "../../platform/metering/guard";

export const SEARCH_TOOL_NAME = "Google Search Results";

/** The query validator; a missing field answers the spec's own sentence (§5). */
function searchQuery<T extends ZodType>(schema: T) {
  return zValidator("query", schema, (result, c) => {
    if (result.success) return;
    const fields: FieldErrors = {};
    for (const issue of result.error.issues) (fields[issue.path.join(".") || "_"] ??= []).push(issue.message);
    return apiError(c, 400, ErrorCode.validation, SEARCH_FIELDS_REQUIRED, fields);
  });
}

export const toolRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/google-results", paidFeature, searchQuery(GoogleResultsQuery), async (c) => {
    const query = c.req.valid("query");
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
    if (!c.env.SERPAPI_KEY) return c.json(sample(null, SEARCH_UNAVAILABLE_SAMPLE_WARNING));

    const db = getDb(c.env);
    const key = searchCacheKey(query);
    const cached = await readCachedSearch(db, key);
    if (cached) {
      const body: GoogleResultsResponse = { results: cached, sample: false, warning: null, error: null, message: null, cached: true };
      return c.json(body);
    }

    // A live search is paid: reserved from the caller's allowance first; refused, the sample data says why.
    const userId = c.get("caller").id;
    const reserved = await reserveCall(c.env, await userPayer(c.env, db, userId), { kind: "search" });
    if (!reserved.ok) return c.json(sample(reserved.refusal.message));
    const outcome = await searchGoogle(c.env, query);
    // The provider bills an answered search (results or none); a failure that never reached an answer costs nothing.
    if (outcome.ok || outcome.empty) {
      const usage = { kind: "search" as const, calls: 1 };
      await reserved.ticket.settle(usage);
      logPaidCall(c, { userId, toolName: SEARCH_TOOL_NAME, model: "serpapi", usage, detail: { cached: false } });
    } else {
      await reserved.ticket.release();
    }
    if (!outcome.ok && outcome.empty) {
      const body: GoogleResultsResponse = { results: [], sample: false, warning: null, error: outcome.error, message: NO_RESULTS_MESSAGE, cached: false };
      return c.json(body);
    }
    if (!outcome.ok) return c.json(sample(outcome.error));
    // Only a real answer with results is kept; failures and empties are asked again next time.
    await writeCachedSearch(db, { key, keyword: query.keyword, location: query.location, results: outcome.results });
    const body: GoogleResultsResponse = { results: outcome.results, sample: false, warning: null, error: null, message: null, cached: false };
    return c.json(body);
  })
  .get("/local-services", searchQuery(LocalServicesQuery), (c) => {
    // Spec §7: the analyzer calls no API and always builds sample data.
    const body: LocalServicesResponse = {
      listings: buildLocalServiceListings(c.req.valid("query")),
      sample: true,
      warning: LOCAL_SERVICES_SAMPLE_NOTE,
    };
    return c.json(body);
  });
