// The edge cache of shared-report responses: keyed by report id and content version, so a change is a new key.
import { cacheOrigin, edgeCache } from "../../platform/edge-cache";
import { log } from "../../platform/log";

export const SHARED_REPORT_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=600";
/** How long the edge keeps one version; the sender's profile (not part of the version) refreshes this often. */
export const SHARED_REPORT_EDGE_TTL_SECONDS = 300;

/** `brand`: the brand's stamp (worker/platform/brand/load.ts), so a saved brand is a new key; "" without a brand. */
export function sharedReportCacheKey(origin: string, id: string, version: number, brand = ""): string {
  return `${origin}/shared-report/${encodeURIComponent(id)}/v${version}${brand ? `/${brand}` : ""}`;
}

export function sharedReportEtag(id: string, version: number, brand = ""): string {
  return `"${id}-v${version}${brand ? `-${brand}` : ""}"`;
}

/**
 * How long one isolate trusts the version it last read for a ready report before asking D1 again.
 * A cache hit then costs no database read at all; a change made in another isolate shows up within
 * this window (a change made in this isolate forgets the entry at once).
 */
export const VERSION_MEMO_MS = 5_000;
const VERSION_MEMO_MAX = 1_000;
type VersionHead = { version: number; status: string };
const versionMemo = new Map<string, VersionHead & { at: number }>();

export function memoizedVersion(id: string, now = Date.now()): VersionHead | null {
  const hit = versionMemo.get(id);
  if (!hit) return null;
  if (now - hit.at > VERSION_MEMO_MS) {
    versionMemo.delete(id);
    return null;
  }
  return hit;
}

/** Remembers only ready reports: anything still generating is read fresh every time. */
export function memoizeVersion(id: string, head: VersionHead, now = Date.now()) {
  if (head.status !== "ready") return;
  if (versionMemo.size >= VERSION_MEMO_MAX) versionMemo.delete(versionMemo.keys().next().value!);
  versionMemo.set(id, { version: head.version, status: head.status, at: now });
}

export function forgetVersion(id?: string) {
  if (id === undefined) versionMemo.clear();
  else versionMemo.delete(id);
}

/** Deletes the cached response of an older version (new versions use new keys, so this only frees space). */
export async function purgeSharedReport(env: { APP_ORIGIN?: string }, id: string, version: number): Promise<void> {
  forgetVersion(id);
  const cache = edgeCache();
  if (!cache) return;
  try {
    await cache.delete(sharedReportCacheKey(cacheOrigin(env), id, version));
  } catch (error) {
    log.warn("shared-report cache purge failed", { reportId: id }, error);
  }
}

/** The cached HTML page of one version, for one build of the page's assets. */
export function sharedPageCacheKey(origin: string, id: string, version: number, build: string): string {
  return `${origin}/shared-report-page/${encodeURIComponent(id)}/v${version}/${encodeURIComponent(build)}`;
}

export function sharedPageEtag(id: string, version: number, build: string): string {
  return `"${id}-v${version}-${build}"`;
}

/**
 * Rendered pages this isolate served lately, in front of the Cache API (whose lookups are a round
 * trip of their own): keyed like the edge cache, so a new version or build is simply a new key.
 * Bounded by entries and bytes; the least recently used goes first.
 */
const PAGE_MEMO_MAX_ENTRIES = 50;
const PAGE_MEMO_MAX_BYTES = 4 * 1024 * 1024;
/** As long as the edge keeps a page: the sender's profile (not in the version) refreshes as often. */
const PAGE_MEMO_MS = SHARED_REPORT_EDGE_TTL_SECONDS * 1000;
const pageMemo = new Map<string, { html: string; at: number }>();
let pageMemoBytes = 0;

function dropPage(key: string) {
  const entry = pageMemo.get(key);
  if (!entry) return;
  pageMemo.delete(key);
  pageMemoBytes -= entry.html.length;
}

export function memoizedPage(key: string, now = Date.now()): string | null {
  const entry = pageMemo.get(key);
  if (!entry) return null;
  if (now - entry.at > PAGE_MEMO_MS) {
    dropPage(key);
    return null;
  }
  pageMemo.delete(key);
  pageMemo.set(key, entry); // most recently used last
  return entry.html;
}

export function memoizePage(key: string, html: string, now = Date.now()) {
  if (html.length > PAGE_MEMO_MAX_BYTES) return;
  dropPage(key);
  pageMemo.set(key, { html, at: now });
  pageMemoBytes += html.length;
  while (pageMemo.size > PAGE_MEMO_MAX_ENTRIES || pageMemoBytes > PAGE_MEMO_MAX_BYTES) {
    dropPage(pageMemo.keys().next().value!);
  }
}

export function forgetPages() {
  pageMemo.clear();
  pageMemoBytes = 0;
}
