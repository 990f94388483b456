// The edge cache of shared-report responses: keyed by report id and content version, so a change is a new key.
import { log } from "../log";

export const SHARED_REPORT_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=600";
/** How long the edge keeps one version; the sender's profile (not part of the version) refreshes this often. */
export const SHARED_REPORT_EDGE_TTL_SECONDS = 300;

export function sharedReportCacheKey(id: string, version: number): string {
  return `https://cache.internal/shared-report/${encodeURIComponent(id)}/v${version}`;
}

export function sharedReportEtag(id: string, version: number): string {
  return `"${id}-v${version}"`;
}

/** The Cache API's default cache, or null where there is none (an optimisation only). */
export function edgeCache(): Cache | null {
  return typeof caches !== "undefined" && caches?.default ? caches.default : null;
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
export async function purgeSharedReport(id: string, version: number): Promise<void> {
  forgetVersion(id);
  const cache = edgeCache();
  if (!cache) return;
  try {
    await cache.delete(sharedReportCacheKey(id, version));
  } catch (error) {
    log.warn("shared-report cache purge failed", { reportId: id }, error);
  }
}
