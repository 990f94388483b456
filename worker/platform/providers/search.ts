// The web search provider (SerpAPI-compatible GET /search.json): base URL, key, time-out and error mapping, called only
// from the worker; the caller reserves from the meter first (worker/features/tools/search.ts).
import type { Env } from "../env";
import { log } from "../log";
import { SEARCH_TIMEOUT_MS, timeoutMessage, type SearchQuery, type SearchResult } from "./rules/search";

const DEFAULT_BASE_URL = "https://serpapi.com";

export type SearchOutcome =
  | { ok: true; results: SearchResult[] }
  /** The provider answered with no results: shown as the empty state, never cached. */
  | { ok: false; empty: true; error: string }
  /** The search failed: sample data instead, never cached. */
  | { ok: false; empty: false; error: string };

type OrganicResult = {
  title?: unknown;
  snippet?: unknown;
  link?: unknown;
  displayed_link?: unknown;
  position?: unknown;
  favicon?: unknown;
};

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function searchTimeoutMs(env: Env): number {
  const n = Number(env.SEARCH_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : SEARCH_TIMEOUT_MS;
}

/** One live search. Every failure is an outcome with the spec's message (§8), never a throw. */
export async function searchGoogle(env: Env, query: SearchQuery): Promise<SearchOutcome> {
  const base = (env.SERPAPI_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const url = new URL(`${base}/search.json`);
  url.searchParams.set("engine", "google");
  url.searchParams.set("q", query.keyword);
  url.searchParams.set("location", query.location);
  url.searchParams.set("api_key", env.SERPAPI_KEY ?? "");
  const ms = searchTimeoutMs(env);

  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(ms) });
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { ok: false, empty: false, error: timeoutMessage(ms) };
    log.warn("search: provider unreachable", {}, err);
    return { ok: false, empty: false, error: "SERP API request failed: 0 - unreachable" };
  }

  let text: string;
  try {
    text = await res.text();
  } catch {
    return { ok: false, empty: false, error: timeoutMessage(ms) };
  }
  // The provider's own texts are logged, never passed to the page: the status and its standard reason phrase only.
  if (!res.ok) {
    log.warn("search: provider refused", { status: res.status, detail: text.slice(0, 300) });
    return { ok: false, empty: false, error: `SERP API request failed: ${res.status} - ${res.statusText || "error"}` };
  }

  let body: { error?: unknown; organic_results?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, empty: false, error: "No results found in SERP API response" };
  }
  if (body.error) {
    log.warn("search: provider error", { detail: str(body.error).slice(0, 300) });
    return { ok: false, empty: false, error: "SERP API returned error: the search provider refused the query" };
  }
  if (!Array.isArray(body.organic_results)) {
    return { ok: false, empty: false, error: "No results found in SERP API response" };
  }
  const results = (body.organic_results as OrganicResult[])
    .map((r, i): SearchResult => ({
      title: str(r.title),
      snippet: str(r.snippet),
      link: str(r.link),
      displayedLink: str(r.displayed_link) || str(r.link),
      position: typeof r.position === "number" ? r.position : i + 1,
      // Left out (issue 26): a favicon URL would make the customer's browser call the search provider's host.
      favicon: null,
    }))
    .filter((r) => r.title && /^https?:\/\//.test(r.link));
  if (results.length === 0) return { ok: false, empty: true, error: "No results found in SERP API response" };
  return { ok: true, results };
}
