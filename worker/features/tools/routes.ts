// /api/tools: the Google Search Results search (server-side, 24-hour cache) and the Local Services sample builder.
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import type { ZodType } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import {
  buildLocalServiceListings,
  GoogleResultsQuery,
  LocalServicesQuery,
  LOCAL_SERVICES_SAMPLE_NOTE,
  SEARCH_FIELDS_REQUIRED,
  type LocalServicesResponse,
} from "./rules/search-tools";
import { apiError, ErrorCode, type FieldErrors } from "../../platform/errors";
import { logPaidCall } from "../../platform/metering/usage-log";
import { paidFeature } from "../../platform/metering/guard";
import { googleResults } from "./search";

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
    const body = await googleResults(c.env, c.req.valid("query"), c.get("caller").id, (entry) => logPaidCall(c, entry));
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
