// /api/rank (issue 19): the Local Search Grid (estimate, run, read, history, CSV) and the Local Rank Tracker (tracked
// keywords: add, list, read, pause/resume or frequency, delete, CSV), and the public /api/shared/grids/:token.
// Permissions are enforced here: a user sees only their own business's scans and keywords, admins prospects' too;
// viewing as someone is read-only (requireUser refuses writes).
import { cacheOrigin, edgeCache, matchesEtag, wantsCacheBypass } from "../../platform/edge-cache";
import { waitUntil } from "../../platform/context";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { actsAsAdmin, requireUser } from "../../platform/auth/middleware";
import { businessScope, mayReadBusinessRow, scopeOwner } from "../../platform/http/business-scope";
import { estimateOrRefusal, estimateQuery, refusalResponse } from "../../platform/http/paid-run";
import { businessFor, gridAllowanceRefusal, keywordAllowance, trackKeyword } from "./service";
import type { AppEnv } from "../../platform/context";
import { getDb, type Db } from "../../platform/db/client";
import {
  checksOf,
  deleteTrackedKeyword,
  getGridScan,
  getTrackedKeyword,
  listGridScans,
  listTrackedKeywords,
  patchTrackedKeyword,
  previousGridScan,
  scanIdByToken,
  type GridPointRow,
  type GridScanRow,
  type RankOwner,
  type TrackedKeywordRow,
} from "./queries";
import { toCsv } from "../../domain/csv";
import { GRID_SIZE_ADMIN_MESSAGE, GRID_SIZE_MESSAGE, GridRequest, gridSizeAllowed, ADMIN_GRID_SIZES } from "./rules/grid";
import { scanPointsCsv } from "./rules/metrics";
import { TrackKeywordPatch, TrackKeywordRequest } from "./rules/tracker";
import type { GridScanView, TrackedKeywordList } from "./rules/view";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";
import { RankErrorCode } from "./business";
import { gridEstimate, startGrid } from "./grid";
import { buildGridScanView, buildTrackedKeywordDetail, buildTrackedKeywordView, gridScanSummary, pointResult } from "./view";
import { validate, validId } from "../../platform/validate";
import { paidFeature } from "../../platform/metering/guard";

export const GRID_NOT_FOUND = "Scan not found";
export const KEYWORD_NOT_FOUND = "Tracked keyword not found";
export const SHARED_GRID_NOT_FOUND = "This shared grid does not exist or was deleted.";

const BusinessQuery = z.object({
  business: z.union([z.literal("own"), z.string().trim().min(1).max(100)], { error: "business: own or a prospect id" }),
  keyword: z.string().trim().min(1).max(200).optional(),
});

const EstimateQuery = z.object({
  estimate: z.literal("1"),
  size: z.coerce
    .number({ error: GRID_SIZE_MESSAGE })
    .int(GRID_SIZE_MESSAGE)
    .refine((n) => (ADMIN_GRID_SIZES as readonly number[]).includes(n), GRID_SIZE_MESSAGE),
});

/** Own, or a prospect's (admins', with requireAdmin's second-factor rule). */
const scope = (from: "json" | "query", field: "business" | "prospectId", what: string) => businessScope({ from, field, what });

function sizeRefused(c: Context<AppEnv>, size: number) {
  return gridSizeAllowed(size, actsAsAdmin(c)) ? null : apiError(c, 403, RankErrorCode.gridSizeNotAllowed, GRID_SIZE_ADMIN_MESSAGE);
}

/** Whose list a `business=` query asks for: `own`, or a prospect (admins only). */
function ownerOf(c: Context<AppEnv>): RankOwner {
  return scopeOwner(c.get("business"));
}

/** Users read their own business's scans and keywords; admins prospects' too (as the subject, so view-as reads). */
const mayRead = (c: Context<AppEnv>, row: { kind: "own" | "prospect"; userId: string }) => mayReadBusinessRow(c, row);

async function scanView(c: Context<AppEnv>, db: Db, scan: GridScanRow, points: GridPointRow[], publicView = false): Promise<GridScanView> {
  const before = publicView ? null : await previousGridScan(db, scan);
  const previous = before ? await getGridScan(db, before.id) : null;
  return buildGridScanView(scan, points, { previous: previous ? { scan: previous.scan, points: previous.points } : null, mapTileUrl: c.env.MAP_TILE_URL || null, publicView });
}

function csvResponse(c: Context<AppEnv>, csv: string, name: string) {
  const safe = name.replace(/[^a-z0-9-]+/gi, "-").replace(/^-|-$/g, "").slice(0, 80) || "export";
  // The byte-order mark makes spreadsheet apps read the file as UTF-8.
  return c.body(`\uFEFF${csv}`, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${safe}.csv"` });
}

async function keywordOr404(c: Context<AppEnv>, db: Db): Promise<TrackedKeywordRow | null> {
  const row = await getTrackedKeyword(db, c.req.param("id") ?? "");
  return row && mayRead(c, row) ? row : null;
}

export const rankRoutes = new Hono<AppEnv>()
  .use(requireUser)

  // ——— Local Search Grid ———

  .post("/grids", paidFeature, estimateQuery, validate("json", GridRequest), scope("json", "prospectId", "scan"), async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env);
    const subject = c.get("subject");
    const sizeNo = sizeRefused(c, body.size);
    if (sizeNo) return sizeNo;
    const estimate = await gridEstimate(c.env, db, subject.id, body.size);
    // Refused before any call: the whole grid's estimate must fit what is left.
    const refused = await estimateOrRefusal(c, estimate, gridAllowanceRefusal);
    if (refused) return refused;
    const resolved = await businessFor(c.env, db, body, subject);
    if (!resolved.ok) return refusalResponse(c, resolved.refusal);
    let scan: GridScanRow;
    try {
      scan = await startGrid(c.env, { resolved: resolved.value, keyword: body.keyword, size: body.size, radiusMiles: body.radiusMiles, userId: subject.id });
    } catch (error) {
      log.error("rank: grid start failed", {}, error);
      return apiError(c, 503, ErrorCode.unavailable, "The grid could not be started. Please try again.");
    }
    const found = (await getGridScan(db, scan.id))!;
    return c.json(await scanView(c, db, found.scan, found.points), 201);
  })

  .get("/grids", validate("query", z.union([EstimateQuery, BusinessQuery])), scope("query", "business", "read the scans of"), async (c) => {
    const query = c.req.valid("query");
    if ("estimate" in query) {
      const refused = sizeRefused(c, query.size);
      if (refused) return refused;
      return c.json(await gridEstimate(c.env, getDb(c.env), c.get("subject").id, query.size));
    }
    const db = getDb(c.env);
    const scans = await listGridScans(db, ownerOf(c), query.keyword);
    const withPoints = await Promise.all(scans.map((s) => getGridScan(db, s.id)));
    return c.json({ scans: withPoints.filter((f) => f !== null).map((f) => gridScanSummary(f.scan, f.points)) });
  })

  .get("/grids/:id", validId(GRID_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getGridScan(db, c.req.valid("param").id);
    if (!found || !mayRead(c, found.scan)) return apiError(c, 404, ErrorCode.notFound, GRID_NOT_FOUND);
    return c.json(await scanView(c, db, found.scan, found.points));
  })

  .get("/grids/:id/export.csv", validId(GRID_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const found = await getGridScan(db, c.req.valid("param").id);
    if (!found || !mayRead(c, found.scan)) return apiError(c, 404, ErrorCode.notFound, GRID_NOT_FOUND);
    const csv = scanPointsCsv(found.points.map((p) => ({ row: p.row, col: p.col, lat: p.lat, lng: p.lng, result: pointResult(p) })));
    return csvResponse(c, csv, `grid-${found.scan.keyword}-${found.scan.createdAt.slice(0, 10)}`);
  })

  // ——— Local Rank Tracker ———

  .get("/keywords", validate("query", BusinessQuery), scope("query", "business", "read the keywords of"), async (c) => {
    const db = getDb(c.env);
    const keywords = await listTrackedKeywords(db, ownerOf(c));
    const checks = await checksOf(
      db,
      keywords.map((k) => k.id),
    );
    const allowance = await keywordAllowance(c.env, db, c.get("subject").id, actsAsAdmin(c));
    const body: TrackedKeywordList = {
      keywords: keywords.map((k) => buildTrackedKeywordView(k, checks.filter((ch) => ch.keywordId === k.id))),
      ...allowance,
    };
    return c.json(body);
  })

  .post("/keywords", paidFeature, validate("json", TrackKeywordRequest), scope("json", "prospectId", "track keywords of"), async (c) => {
    const db = getDb(c.env);
    const tracked = await trackKeyword(c.env, db, { ...c.get("subject"), actingAdmin: actsAsAdmin(c) }, c.req.valid("json"));
    if (!tracked.ok) return refusalResponse(c, tracked.refusal);
    return c.json(buildTrackedKeywordDetail(tracked.row, await checksOf(db, [tracked.row.id])), 201);
  })

  .get("/keywords/:id", validId(KEYWORD_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const row = await keywordOr404(c, db);
    if (!row) return apiError(c, 404, ErrorCode.notFound, KEYWORD_NOT_FOUND);
    return c.json(buildTrackedKeywordDetail(row, await checksOf(db, [row.id])));
  })

  .patch("/keywords/:id", validId(KEYWORD_NOT_FOUND), validate("json", TrackKeywordPatch), async (c) => {
    const db = getDb(c.env);
    const row = await keywordOr404(c, db);
    if (!row) return apiError(c, 404, ErrorCode.notFound, KEYWORD_NOT_FOUND);
    const patched = (await patchTrackedKeyword(db, row.id, c.req.valid("json"))) ?? row;
    return c.json(buildTrackedKeywordDetail(patched, await checksOf(db, [row.id])));
  })

  .delete("/keywords/:id", validId(KEYWORD_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const row = await keywordOr404(c, db);
    if (!row) return apiError(c, 404, ErrorCode.notFound, KEYWORD_NOT_FOUND);
    await deleteTrackedKeyword(db, row.id);
    return c.json({ deleted: true as const });
  })

  .get("/keywords/:id/export.csv", validId(KEYWORD_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const row = await keywordOr404(c, db);
    if (!row) return apiError(c, 404, ErrorCode.notFound, KEYWORD_NOT_FOUND);
    const detail = buildTrackedKeywordDetail(row, await checksOf(db, [row.id]));
    const label = { found: "Found", not_found: "Not in the top 20", failed: "Search failed", pending: "Pending" } as const;
    const csv = toCsv([
      ["Checked at", "Map pack", "Map pack rank", "Organic", "Organic rank"],
      ...detail.checks.map((ch) => [
        ch.checkedAt,
        label[ch.map.status],
        ch.map.status === "found" ? ch.map.rank : "",
        label[ch.organic.status],
        ch.organic.status === "found" ? ch.organic.rank : "",
      ]),
    ]);
    return csvResponse(c, csv, `rank-${row.keyword}`);
  });

// ——— the public share page's data ———

const TOKEN = /^[0-9a-f]{32}$/;
const SHARED_GRID_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=600";
const JSON_TYPE = "application/json; charset=utf-8";

/** GET /api/shared/grids/:token: a scan without its prospect id, edge-cached by token + version (correct without the cache). */
export const sharedGridRoutes = new Hono<AppEnv>().get("/:token", async (c) => {
  const token = c.req.param("token");
  if (!TOKEN.test(token)) return apiError(c, 404, ErrorCode.notFound, SHARED_GRID_NOT_FOUND);
  const db = getDb(c.env);
  const head = await scanIdByToken(db, token);
  if (!head) return apiError(c, 404, ErrorCode.notFound, SHARED_GRID_NOT_FOUND);
  const etag = `"grid-${token}-v${head.version}"`;
  const headers = { ETag: etag, "Cache-Control": SHARED_GRID_CACHE_CONTROL };
  if (matchesEtag(c.req.header("If-None-Match"), etag)) return c.body(null, 304, { ...headers, "X-Cache": "REVALIDATED" });
  const bypass = wantsCacheBypass(c.env, c.req.url);
  const cache = bypass ? null : edgeCache();
  const key = `${cacheOrigin(c.env)}/shared-grid/${token}/v${head.version}`;
  if (cache) {
    const hit = await cache.match(key).catch(() => undefined);
    if (hit) return c.body(hit.body ?? "", 200, { ...headers, "Content-Type": JSON_TYPE, "X-Cache": "HIT" });
  }
  const found = await getGridScan(db, head.id);
  if (!found) return apiError(c, 404, ErrorCode.notFound, SHARED_GRID_NOT_FOUND);
  const view = await scanView(c, db, found.scan, found.points, true);
  if (cache && found.scan.version === head.version) {
    const stored = new Response(JSON.stringify(view), { headers: { "Content-Type": JSON_TYPE, "Cache-Control": "public, max-age=300" } });
    waitUntil(c, cache.put(key, stored).catch((error) => log.warn("shared-grid cache put failed", {}, error)));
  }
  return c.json(view, 200, { ...headers, ETag: `"grid-${token}-v${found.scan.version}"`, "X-Cache": bypass ? "BYPASS" : "MISS" });
});
