// GET /shared/reports/:id: the shared report as server-rendered HTML (readable without JavaScript, previewable
// by link unfurlers), edge-cached by id + content version + asset build; and its Open Graph card image.
import { cacheOrigin, edgeCache, matchesEtag, wantsCacheBypass } from "../../platform/edge-cache";
import { waitUntil } from "../../platform/context";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getReportVersion } from "./queries";
import { sharedReportPath } from "./rules/view";
import { cardVersion, ogCardPath, reportCard } from "./og-card";
import {
  SHARED_REPORT_CACHE_CONTROL,
  SHARED_REPORT_EDGE_TTL_SECONDS,
  memoizePage,
  memoizeVersion,
  memoizedPage,
  memoizedVersion,
  sharedPageCacheKey,
  sharedPageEtag,
} from "./shared-cache";
import { sharedPageAssets } from "./shared-page-assets";
import { appOrigin, loadSharedReport } from "./views";
import { newVisitToken, withVisitToken } from "./visit-token";
import { SHARED_PAGE_CSP, renderNotFoundPage, renderSharedReportPage } from "./shared-report-page";
import { log } from "../../platform/log";
import { brandStamp, loadBrand } from "../../platform/brand/load";
import { publicBrand } from "../../platform/brand/rules/brand";

const MAX_ID_LENGTH = 64;
const HTML_TYPE = "text/html; charset=utf-8";
/** A card URL carries its version, so the image never changes under it. */
const CARD_CACHE_CONTROL = "public, max-age=31536000, immutable";

const PAGE_HEADERS = {
  "Content-Type": HTML_TYPE,
  "Content-Security-Policy": SHARED_PAGE_CSP,
  "X-Robots-Tag": "noindex, nofollow",
};

async function notFoundPage(c: Context<AppEnv>) {
  const assets = await sharedPageAssets(c.env, c.req.url);
  return c.body(renderNotFoundPage(assets.tags, publicBrand(await loadBrand(c.env))), 404, { ...PAGE_HEADERS, "Cache-Control": "no-store" });
}

/** The current version of a report: trusted per isolate for a few seconds when ready (see VERSION_MEMO_MS). */
async function reportHead(c: Context<AppEnv>, id: string) {
  if (id.length > MAX_ID_LENGTH) return null;
  const head = memoizedVersion(id) ?? (await getReportVersion(getDb(c.env), id));
  if (head) memoizeVersion(id, head);
  return head;
}

export const sharedReportPageRoutes = new Hono<AppEnv>()
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    const head = await reportHead(c, id);
    if (!head) return notFoundPage(c);
    const [assets, brand] = await Promise.all([sharedPageAssets(c.env, c.req.url), loadBrand(c.env)]);
    const stamp = brandStamp(brand);
    // A saved brand is a new page (and card): the build and the brand's stamp key it beside the version.
    const build = stamp ? `${assets.build}.${stamp}` : assets.build;
    const origin = appOrigin(c.env, c.req.url);
    const render = async () => {
      const data = await loadSharedReport(getDb(c.env), id);
      if (!data) return null;
      const html = renderSharedReportPage(data, {
        pageUrl: `${origin}${sharedReportPath(id)}`,
        imageUrl: `${origin}${ogCardPath(id, data.report.version, stamp)}`,
        assets: assets.tags,
      });
      return { data, html };
    };

    // Still generating: a small page that refreshes itself, never cached.
    if (head.status !== "ready") {
      const page = await render();
      if (!page) return notFoundPage(c);
      return c.body(withVisitToken(page.html, await newVisitToken(c.env, id)), 200, { ...PAGE_HEADERS, "Cache-Control": "no-store", "X-Cache": "BYPASS" });
    }

    const etag = sharedPageEtag(id, head.version, build);
    const headers: Record<string, string> = { ...PAGE_HEADERS, ETag: etag, "Cache-Control": SHARED_REPORT_CACHE_CONTROL };
    // The stylesheet is the page's one render-blocking request: ask for it with the response headers.
    if (assets.preload) headers.Link = assets.preload;
    if (matchesEtag(c.req.header("If-None-Match"), etag)) {
      return c.body(null, 304, { ...headers, "X-Cache": "REVALIDATED" });
    }

    const bypass = wantsCacheBypass(c.env, c.req.url);
    const cache = bypass ? null : edgeCache();
    const key = sharedPageCacheKey(cacheOrigin(c.env), id, head.version, build);
    if (cache) {
      const memo = memoizedPage(key);
      if (memo !== null) return c.body(withVisitToken(memo, await newVisitToken(c.env, id)), 200, { ...headers, "X-Cache": "HIT" });
      const hit = await cache.match(key).catch(() => undefined);
      if (hit) {
        const html = await hit.text();
        memoizePage(key, html);
        return c.body(withVisitToken(html, await newVisitToken(c.env, id)), 200, { ...headers, "X-Cache": "HIT" });
      }
    }

    const page = await render();
    if (!page) return notFoundPage(c);
    const { report } = page.data;
    // Cache only what matches the version we keyed on (a save may have landed in between).
    if (cache && report.version === head.version && report.status === "ready") {
      const stored = new Response(page.html, {
        headers: { "Content-Type": HTML_TYPE, "Cache-Control": `public, max-age=${SHARED_REPORT_EDGE_TTL_SECONDS}` },
      });
      waitUntil(c, cache.put(key, stored).catch((error) => log.warn("shared page cache put failed", {}, error)));
      memoizePage(key, page.html);
    }
    return c.body(withVisitToken(page.html, await newVisitToken(c.env, id)), 200, {
      ...headers,
      ETag: sharedPageEtag(id, report.version, build),
      "X-Cache": bypass ? "BYPASS" : "MISS",
    });
  })

  .get("/:id/card.png", async (c) => {
    const id = c.req.param("id");
    const head = await reportHead(c, id);
    if (!head || head.status !== "ready") return c.body("Report not found", 404, { "Content-Type": "text/plain; charset=utf-8" });
    const data = await loadSharedReport(getDb(c.env), id);
    if (!data || !data.report.content) return c.body("Report not found", 404, { "Content-Type": "text/plain; charset=utf-8" });
    const stamp = brandStamp(await loadBrand(c.env));
    const card = await reportCard(c.env, data, (p) => waitUntil(c, p), stamp);
    const exact = c.req.query("v") === cardVersion(data.report.version, stamp);
    return new Response(card.body as BodyInit, {
      headers: {
        "Content-Type": "image/png",
        "Cache-Control": exact ? CARD_CACHE_CONTROL : "public, max-age=300",
        "X-Card": card.rendered ? "RENDERED" : "STORED",
      },
    });
  });
