// The shared report's public answers: its JSON (/api/shared/reports/:id) and its server-rendered page
// (/shared/reports/:id), each edge-cached by id + content version (the page also by asset build and brand) with an ETag.
import { cacheOrigin, matchesEtag } from "../../platform/edge-cache";
import type { Env } from "../../platform/env";
import { getDb, type Db } from "../../platform/db/client";
import { brandStamp, loadBrand } from "../../platform/brand/load";
import { publicBrand } from "../../platform/brand/rules/brand";
import { MAX_ID_LENGTH } from "../../domain/ids";
import { getReportVersion } from "./queries";
import { ogCardPath, sharedReportPath, type SharedReportResponse } from "./rules/view";
import {
  SHARED_REPORT_CACHE_CONTROL,
  memoizeVersion,
  memoizedVersion,
  sharedPageCacheKey,
  sharedPageEtag,
  sharedReportCacheKey,
  sharedReportEtag,
  throughEdgeCache,
  type SharedAnswer,
  type SharedRequest,
} from "./shared-cache";
import { sharedPageAssets } from "./shared-page-assets";
import { appOrigin, loadSharedReport } from "./views";
import { newVisitToken, withVisitToken } from "./visit-token";
import { SHARED_PAGE_CSP, renderNotFoundPage, renderSharedReportPage } from "./shared-report-page";

const JSON_TYPE = "application/json; charset=utf-8";
const HTML_TYPE = "text/html; charset=utf-8";
export const PAGE_HEADERS = { "Content-Type": HTML_TYPE, "Content-Security-Policy": SHARED_PAGE_CSP, "X-Robots-Tag": "noindex, nofollow" };

/**
 * The current version of a report: one small read, so the cache never serves an old one (this isolate trusts a ready
 * report's version for a few seconds; see VERSION_MEMO_MS). An id longer than any we make is no report.
 */
export async function reportHead(db: Db, id: string) {
  if (id.length > MAX_ID_LENGTH) return null;
  const head = memoizedVersion(id) ?? (await getReportVersion(db, id));
  if (head) memoizeVersion(id, head);
  return head;
}

/** The shared pages' not-found page, with their stylesheet and the brand (the client reports' too). */
export async function notFoundPage(env: Env, url: string): Promise<SharedAnswer> {
  const [assets, brand] = await Promise.all([sharedPageAssets(env, url), loadBrand(env)]);
  return { status: 404, body: renderNotFoundPage(assets.tags, publicBrand(brand)), headers: { ...PAGE_HEADERS, "Cache-Control": "no-store" } };
}

/**
 * The shared report as JSON: a report still generating is read fresh (`fresh`, never cached); a ready one answers 304
 * to its ETag, else from the edge cache or freshly read. Null: no such report.
 */
export async function sharedReportJson(env: Env, id: string, request: SharedRequest): Promise<SharedAnswer | { fresh: SharedReportResponse } | null> {
  const db = getDb(env);
  const head = await reportHead(db, id);
  if (!head) return null;
  if (head.status !== "ready") {
    const fresh = await loadSharedReport(db, id);
    return fresh ? { fresh } : null;
  }
  const stamp = brandStamp(await loadBrand(db));
  const etag = sharedReportEtag(id, head.version, stamp);
  const headers = { ETag: etag, "Cache-Control": SHARED_REPORT_CACHE_CONTROL };
  if (matchesEtag(request.ifNoneMatch, etag)) return { status: 304, body: null, headers: { ...headers, "X-Cache": "REVALIDATED" } };

  // Only the benchmark's development flag skips the edge cache; a client's no-cache does not.
  const key = sharedReportCacheKey(cacheOrigin(env), id, head.version, stamp);
  const answer = await throughEdgeCache(env, request, { key, contentType: JSON_TYPE, memo: false, label: "shared-report cache put failed" }, async () => {
    const body = await loadSharedReport(db, id);
    return body && { text: JSON.stringify(body), value: body.report.version, keep: body.report.version === head.version && body.report.status === "ready" };
  });
  if (!answer) return null;
  if (answer.from === "HIT") return { status: 200, body: answer.body, headers: { ...headers, "Content-Type": JSON_TYPE, "X-Cache": "HIT" } };
  return { status: 200, body: answer.body, headers: { ...headers, ETag: sharedReportEtag(id, answer.value, stamp), "Content-Type": JSON_TYPE, "X-Cache": answer.from } };
}

/**
 * The shared report's page, signed with a new visit token: a report still generating gets a small page that refreshes
 * itself, never cached; a ready one answers 304 to its ETag, else from this isolate's memo, the edge cache, or freshly
 * rendered. Null: no such report.
 */
export async function sharedReportPage(env: Env, id: string, request: SharedRequest): Promise<SharedAnswer | null> {
  const head = await reportHead(getDb(env), id);
  if (!head) return null;
  const [assets, brand] = await Promise.all([sharedPageAssets(env, request.url), loadBrand(env)]);
  const stamp = brandStamp(brand);
  // A saved brand is a new page (and card): the build and the brand's stamp key it beside the version.
  const build = stamp ? `${assets.build}.${stamp}` : assets.build;
  const origin = appOrigin(env, request.url);
  const sign = async (html: string) => withVisitToken(html, await newVisitToken(env, id));
  const render = async () => {
    const data = await loadSharedReport(getDb(env), id);
    if (!data) return null;
    const { report } = data;
    const html = renderSharedReportPage(data, { pageUrl: `${origin}${sharedReportPath(id)}`, imageUrl: `${origin}${ogCardPath(id, report.version, stamp)}`, assets: assets.tags });
    return { text: html, value: report.version, keep: report.version === head.version && report.status === "ready" };
  };

  if (head.status !== "ready") {
    const page = await render();
    return page && { status: 200, body: await sign(page.text), headers: { ...PAGE_HEADERS, "Cache-Control": "no-store", "X-Cache": "BYPASS" } };
  }
  const etag = sharedPageEtag(id, head.version, build);
  const headers: Record<string, string> = { ...PAGE_HEADERS, ETag: etag, "Cache-Control": SHARED_REPORT_CACHE_CONTROL };
  // The stylesheet is the page's one render-blocking request: ask for it with the response headers.
  if (assets.preload) headers.Link = assets.preload;
  if (matchesEtag(request.ifNoneMatch, etag)) return { status: 304, body: null, headers: { ...headers, "X-Cache": "REVALIDATED" } };

  const key = sharedPageCacheKey(cacheOrigin(env), id, head.version, build);
  const page = await throughEdgeCache(env, request, { key, contentType: HTML_TYPE, memo: true, label: "shared page cache put failed" }, render);
  if (!page) return null;
  const version: Record<string, string> = page.from === "HIT" ? {} : { ETag: sharedPageEtag(id, page.value, build) };
  return { status: 200, body: await sign(page.body), headers: { ...headers, ...version, "X-Cache": page.from } };
}
