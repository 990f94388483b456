// The edge cache (the Cache API) as every cached page and answer uses it: one origin for its keys, ETags, and the
// benchmark's bypass. An optimisation only: everything is correct without it, as on *.workers.dev.

/** Used for cache keys when APP_ORIGIN is not configured: never the request's Host, which a client chooses. */
export const INTERNAL_CACHE_ORIGIN = "https://cache.internal";

/** The origin every cache key is built on: the app's own (APP_ORIGIN), else the fixed internal one. */
export function cacheOrigin(env: { APP_ORIGIN?: string }): string {
  try {
    return env.APP_ORIGIN ? new URL(env.APP_ORIGIN).origin : INTERNAL_CACHE_ORIGIN;
  } catch {
    return INTERNAL_CACHE_ORIGIN;
  }
}

/** The Cache API's default cache, or null where there is none (an optimisation only). */
export function edgeCache(): Cache | null {
  // Read through the Workers type: a Node or DOM typecheck of a file that reaches this one knows no `caches.default`.
  const store = typeof caches !== "undefined" ? (caches as unknown as { default?: Cache }) : undefined;
  return store?.default ?? null;
}

/** True when If-None-Match names this ETag (weak or strong) or is "*". */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * Skips the edge cache for the benchmark's uncached baseline: `?cache=bypass`, honoured only in local
 * development. A client's `Cache-Control: no-cache` or `Pragma` does not: anyone could send it on every
 * request and turn each view into database reads and a render.
 */
export function wantsCacheBypass(env: { ENVIRONMENT?: string }, url: string): boolean {
  return env.ENVIRONMENT === "development" && new URL(url).searchParams.get("cache") === "bypass";
}
