// The edge cache of shared-report responses: keyed by report id and content version, so a change is a new key.
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

/** Deletes the cached response of an older version (new versions use new keys, so this only frees space). */
export async function purgeSharedReport(id: string, version: number): Promise<void> {
  const cache = edgeCache();
  if (!cache) return;
  try {
    await cache.delete(sharedReportCacheKey(id, version));
  } catch (error) {
    console.warn("shared-report cache purge failed", id, error);
  }
}
