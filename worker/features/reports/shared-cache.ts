// The edge cache of shared-report responses: keyed by report id and content version, so a change is a new key.
import { cacheOrigin, edgeCache, wantsCacheBypass } from "../../platform/edge-cache";
import type { Context } from "hono";
import { waitUntil, type AppEnv } from "../../platform/context";
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

/** What a shared answer reads of its request: the URL, If-None-Match, and where to hand work that outlives it. */
export type SharedRequest = { url: string; ifNoneMatch: string | undefined; waitUntil: (work: Promise<unknown>) => void };

/** What the shared answers read of a request (the client reports' page too). */
export function sharedRequest(c: Context<AppEnv>): SharedRequest {
  return { url: c.req.url, ifNoneMatch: c.req.header("If-None-Match"), waitUntil: (work) => waitUntil(c, work) };
}

/** A shared answer as the route sends it (`sendShared`). */
export type SharedAnswer =
  | { status: 304; body: null; headers: Record<string, string> }
  | { status: 200 | 404; body: string | ReadableStream; headers: Record<string, string> };

export function sendShared(c: Context<AppEnv>, answer: SharedAnswer) {
  return answer.status === 304 ? c.body(null, 304, answer.headers) : c.body(answer.body, answer.status, answer.headers);
}

type Rendered<T> = { text: string; value: T; keep: boolean };
type Cached = { key: string; contentType: string; memo: boolean; label: string };
type Served<T, B> = { from: "HIT"; body: B } | { from: "MISS" | "BYPASS"; body: string; value: T } | null;

/**
 * One version of a shared answer through the edge cache, under `key`: this isolate's page memo (`memo`, for pages:
 * a hit is then read as text), then the Cache API, else `render`, whose text is stored when it `keep`s (it is the
 * version keyed on). "HIT" answers the cached body; "MISS" (or "BYPASS", the benchmark's flag) the rendered one.
 * Null: `render` found nothing.
 */
export async function throughEdgeCache<T>(env: { ENVIRONMENT?: string }, request: SharedRequest, cached: Cached & { memo: true }, render: () => Promise<Rendered<T> | null>): Promise<Served<T, string>>;
export async function throughEdgeCache<T>(env: { ENVIRONMENT?: string }, request: SharedRequest, cached: Cached & { memo: false }, render: () => Promise<Rendered<T> | null>): Promise<Served<T, string | ReadableStream>>;
export async function throughEdgeCache<T>(
  env: { ENVIRONMENT?: string },
  request: SharedRequest,
  cached: Cached,
  render: () => Promise<Rendered<T> | null>,
): Promise<Served<T, string | ReadableStream>> {
  const bypass = wantsCacheBypass(env, request.url);
  const cache = bypass ? null : edgeCache();
  const { key, memo } = cached;
  if (cache) {
    const remembered = memo ? memoizedPage(key) : null;
    if (remembered !== null) return { from: "HIT", body: remembered };
    const hit = await cache.match(key).catch(() => undefined);
    if (hit && !memo) return { from: "HIT", body: hit.body ?? "" };
    if (hit) {
      const html = await hit.text();
      memoizePage(key, html);
      return { from: "HIT", body: html };
    }
  }
  const fresh = await render();
  if (!fresh) return null;
  // Cache only what matches the version keyed on (a save may have landed in between).
  if (cache && fresh.keep) {
    const stored = new Response(fresh.text, { headers: { "Content-Type": cached.contentType, "Cache-Control": `public, max-age=${SHARED_REPORT_EDGE_TTL_SECONDS}` } });
    request.waitUntil(cache.put(key, stored).catch((error) => log.warn(cached.label, {}, error)));
    if (memo) memoizePage(key, fresh.text);
  }
  return { from: bypass ? "BYPASS" : "MISS", body: fresh.text, value: fresh.value };
}
