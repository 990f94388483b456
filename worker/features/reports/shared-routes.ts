// /api/shared/reports/:id: the public report (no sign-in, never the phone), edge-cached by id + version with ETag.
import { cacheOrigin, edgeCache, matchesEtag, wantsCacheBypass } from "../../platform/edge-cache";
import { waitUntil } from "../../platform/context";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getReportVersion } from "./queries";
import { apiError, ErrorCode } from "../../platform/errors";
import {
  SHARED_REPORT_CACHE_CONTROL,
  SHARED_REPORT_EDGE_TTL_SECONDS,
  memoizeVersion,
  memoizedVersion,
  sharedReportCacheKey,
  sharedReportEtag,
} from "./shared-cache";
import { loadSharedReport } from "./views";
import { log } from "../../platform/log";
import { validId } from "../../platform/validate";
import { REPORT_NOT_FOUND } from "./rules/status";
import { brandStamp, loadBrand } from "../../platform/brand/load";

const JSON_TYPE = "application/json; charset=utf-8";

function notFound(c: Context) {
  return apiError(c, 404, ErrorCode.notFound, REPORT_NOT_FOUND);
}

export const sharedReportRoutes = new Hono<AppEnv>().get("/:id", validId(REPORT_NOT_FOUND), async (c) => {
  const { id } = c.req.valid("param");
  const db = getDb(c.env);

  // One small read tells the current version, so the cache never serves an old one (this isolate
  // trusts a ready report's version for a few seconds; see VERSION_MEMO_MS).
  const head = memoizedVersion(id) ?? (await getReportVersion(db, id));
  if (!head) return notFound(c);
  memoizeVersion(id, head);

  if (head.status !== "ready") {
    const body = await loadSharedReport(db, id);
    if (!body) return notFound(c);
    return c.json(body, 200, { "Cache-Control": "no-store", "X-Cache": "BYPASS" });
  }

  const stamp = brandStamp(await loadBrand(db));
  const etag = sharedReportEtag(id, head.version, stamp);
  const headers = { ETag: etag, "Cache-Control": SHARED_REPORT_CACHE_CONTROL };
  if (matchesEtag(c.req.header("If-None-Match"), etag)) {
    return c.body(null, 304, { ...headers, "X-Cache": "REVALIDATED" });
  }

  // Only the benchmark's development flag skips the edge cache; a client's no-cache does not.
  const bypass = wantsCacheBypass(c.env, c.req.url);
  const cache = bypass ? null : edgeCache();
  const key = sharedReportCacheKey(cacheOrigin(c.env), id, head.version, stamp);
  if (cache) {
    const hit = await cache.match(key).catch(() => undefined);
    if (hit) return c.body(hit.body ?? "", 200, { ...headers, "Content-Type": JSON_TYPE, "X-Cache": "HIT" });
  }

  const body = await loadSharedReport(db, id);
  if (!body) return notFound(c);
  const text = JSON.stringify(body);
  // Cache only what matches the version we keyed on (a save may have landed in between).
  if (cache && body.report.version === head.version && body.report.status === "ready") {
    const stored = new Response(text, {
      headers: { "Content-Type": JSON_TYPE, "Cache-Control": `public, max-age=${SHARED_REPORT_EDGE_TTL_SECONDS}` },
    });
    waitUntil(c, cache.put(key, stored).catch((error) => log.warn("shared-report cache put failed", {}, error)));
  }
  const etagNow = sharedReportEtag(id, body.report.version, stamp);
  return c.body(text, 200, {
    ...headers,
    ETag: etagNow,
    "Content-Type": JSON_TYPE,
    "X-Cache": bypass ? "BYPASS" : "MISS",
  });
});
