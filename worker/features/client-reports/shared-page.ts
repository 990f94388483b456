// The monthly client report's shared page (issue 30): server-rendered HTML, edge-cached by token + version + asset
// build + brand (the Cache API only as an optimisation; an ETag answers 304), signed with a visit token per answer.
import { cacheOrigin, matchesEtag } from "../../platform/edge-cache";
import type { Env } from "../../platform/env";
import { getDb } from "../../platform/db/client";
import { brandStamp, loadBrand } from "../../platform/brand/load";
import { publicBrand } from "../../platform/brand/rules/brand";
import {
  PAGE_HEADERS,
  SHARED_REPORT_CACHE_CONTROL,
  accentStyle,
  appOrigin,
  newVisitToken,
  sharedPageAssets,
  sharedPageCsp,
  throughEdgeCache,
  withVisitToken,
  type SharedAnswer,
  type SharedRequest,
} from "../reports";
import { clientReportHead } from "./share-queries";
import { SHARE_TOKEN_RE, clientReportCardVersion, loadSharedClientReport } from "./share";
import { clientReportPath, renderClientReportPage } from "./page";

/** Visit tokens are signed for one report; a client report's are kept apart from the shared reports'. */
export const visitSubject = (id: string) => `client-report:${id}`;

function clientReportPageCacheKey(origin: string, token: string, version: number, build: string): string {
  return `${origin}/client-report-page/${encodeURIComponent(token)}/v${version}/${encodeURIComponent(build)}`;
}

function clientReportEtag(id: string, version: number, build: string): string {
  return `"cr-${id}-v${version}-${build}"`;
}

/** The ready report's head, or null (unknown, malformed and not-ready tokens look the same). */
async function readyHead(env: Env, token: string) {
  if (!SHARE_TOKEN_RE.test(token)) return null;
  const head = await clientReportHead(getDb(env), token);
  return head && head.status === "ready" ? head : null;
}

/**
 * The page of the ready report behind `token`: 304 to its ETag, else from this isolate's memo, the edge cache, or
 * freshly rendered. Every answer gets its own visit token (the beacon counts only signed visits); a `preview` gets
 * none: it never counts. Null: no ready report there.
 */
export async function sharedClientReportPage(env: Env, token: string, request: SharedRequest, preview: boolean): Promise<SharedAnswer | null> {
  const head = await readyHead(env, token);
  if (!head) return null;
  const [assets, brand] = await Promise.all([sharedPageAssets(env, request.url, Date.now(), "client-report"), loadBrand(env)]);
  // The page's stylesheet, the brand's accent and its script's loader are inline, allowed by their hashes: nothing
  // but the HTML before the first paint.
  const theme = await accentStyle(brand.accentColor);
  const stamp = brandStamp(brand);
  const build = stamp ? `${assets.build}.${stamp}` : assets.build;
  const sign = async (html: string) => (preview ? html : withVisitToken(html, await newVisitToken(env, visitSubject(head.id))));

  const etag = clientReportEtag(head.id, head.version, build);
  const csp = sharedPageCsp({ styles: theme ? [...assets.styleHashes, theme.hash] : assets.styleHashes, scripts: assets.scriptHashes });
  const headers: Record<string, string> = { ...PAGE_HEADERS, "Content-Security-Policy": csp, ETag: etag, "Cache-Control": SHARED_REPORT_CACHE_CONTROL };
  if (assets.preload) headers.Link = assets.preload;
  if (matchesEtag(request.ifNoneMatch, etag)) return { status: 304, body: null, headers: { ...headers, "X-Cache": "REVALIDATED" } };

  const key = clientReportPageCacheKey(cacheOrigin(env), token, head.version, build);
  const page = await throughEdgeCache(env, request, { key, contentType: PAGE_HEADERS["Content-Type"], memo: true, label: "client report page cache put failed" }, async () => {
    const report = await loadSharedClientReport(getDb(env), token);
    if (!report) return null;
    const origin = appOrigin(env, request.url);
    const html = renderClientReportPage(report.payload, publicBrand(brand), {
      token,
      pageUrl: `${origin}${clientReportPath(token)}`,
      imageUrl: `${origin}${clientReportPath(token)}/card.png?v=${clientReportCardVersion(report.version, stamp)}`,
      assets: assets.tags,
      theme: theme ? [theme.tag] : [],
    });
    // Kept only when it is the version keyed on (a rebuild may have landed in between).
    return { text: html, value: report, keep: report.version === head.version };
  });
  if (!page) return null;
  const version: Record<string, string> = page.from === "HIT" ? {} : { ETag: clientReportEtag(page.value.id, page.value.version, build) };
  return { status: 200, body: await sign(page.body), headers: { ...headers, ...version, "X-Cache": page.from } };
}
