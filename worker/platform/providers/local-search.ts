// The audit's search calls (issue 18) through SerpAPI: the `google_maps` engine (find the business, the map pack for
// the keyword) and the `google` engine with `location` and 100 results (the organic position). Called only by the
// audit's steps (worker/features/audits/steps.ts), which reserve from the meter first; every failure is an outcome, never a throw.
import type { Env } from "../env";
import { log } from "../log";
import { getProviderJson, type JsonProvider, type ProviderFailure } from "./json-get";

const DEFAULT_BASE_URL = "https://serpapi.com";

export type { ProviderFailure };

export type MapsPlace = {
  position: number;
  placeId: string | null;
  name: string;
  address: string | null;
  phone: string | null;
  website: string | null;
  categories: string[] | null;
  /** True when the result carries opening hours, false when it says none, null when it does not say. */
  hoursSet: boolean | null;
  rating: number | null;
  reviewCount: number | null;
  latitude: number | null;
  longitude: number | null;
};

export type MapsOutcome = { ok: true; places: MapsPlace[] } | ProviderFailure;

export type OrganicOutcome = { ok: true; links: { position: number; link: string }[] } | ProviderFailure;

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
/** A string or a list of strings, as the non-empty strings it holds. */
const strings = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).map(str).filter((t): t is string => t !== null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function baseUrl(env: Env): string {
  return (env.SERPAPI_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
}

export function searchConfigured(env: Env): boolean {
  return Boolean(env.SERPAPI_KEY);
}

const SERPAPI: JsonProvider = {
  name: "the search provider",
  logUnreachable: "local-search: provider unreachable",
  logRefused: "local-search: provider refused",
  busy: "the search provider is busy (429)",
  retryable: (status) => status === 429 || status >= 500,
  notJson: "the search provider's answer was not JSON",
};

async function serpGet(env: Env, params: Record<string, string>, timeoutMs: number): Promise<{ ok: true; body: Record<string, unknown> } | ProviderFailure> {
  const url = new URL(`${baseUrl(env)}/search.json`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.searchParams.set("api_key", env.SERPAPI_KEY ?? "");
  const got = await getProviderJson(SERPAPI, url, timeoutMs, { engine: params.engine });
  if (got.ok && (!got.body || typeof got.body !== "object")) return { ok: false, reason: "the search provider's answer was empty", retryable: true };
  return got;
}

function hoursOf(r: Record<string, unknown>): boolean | null {
  const hours = r.operating_hours ?? r.hours;
  if (hours && typeof hours === "object") return Object.keys(hours).length > 0;
  if (typeof hours === "string") return hours.trim() !== "";
  if (typeof r.open_state === "string") return r.open_state.trim() !== "";
  return null;
}

function placeOf(r: Record<string, unknown>, index: number): MapsPlace | null {
  const name = str(r.title);
  if (!name) return null;
  const gps = (r.gps_coordinates ?? {}) as Record<string, unknown>;
  // A listing gives `type` (one category) and `types` (all of them); a single-place answer gives `type` as the list.
  const categories = [...new Set([...strings(r.types), ...strings(r.type)])];
  return {
    position: num(r.position) ?? index + 1,
    placeId: str(r.place_id),
    name,
    address: str(r.address),
    phone: str(r.phone),
    website: str(r.website),
    categories: categories.length > 0 ? categories : null,
    hoursSet: hoursOf(r),
    rating: num(r.rating),
    reviewCount: num(r.reviews),
    latitude: num(gps.latitude),
    longitude: num(gps.longitude),
  };
}

/**
 * Google Maps results for `q` (a business's name and place, or a keyword) near `location`, or seen from a point on the
 * map (`ll`, `@lat,lng,{zoom}z`: the Local Search Grid and the rank tracker; no `location` then, as SerpAPI asks); a
 * single-place answer is a list of one.
 */
export async function searchMaps(
  env: Env,
  query: { q: string; location?: string | null; placeId?: string | null; ll?: string | null },
  timeoutMs: number,
): Promise<MapsOutcome> {
  const params: Record<string, string> = { engine: "google_maps", type: "search", hl: "en" };
  if (query.placeId) {
    params.type = "place";
    params.place_id = query.placeId;
  } else if (query.ll) {
    params.q = query.q;
    params.ll = query.ll;
  } else {
    params.q = query.location ? `${query.q} ${query.location}` : query.q;
  }
  const got = await serpGet(env, params, timeoutMs);
  if (!got.ok) return got;
  const body = got.body;
  if (typeof body.error === "string") {
    // SerpAPI says "hasn't returned any results" with 200 for an empty search: that is an answer, not a failure.
    if (/hasn't returned any results|no results/i.test(body.error)) return { ok: true, places: [] };
    log.warn("local-search: provider error", { detail: body.error.slice(0, 300) });
    return { ok: false, reason: "the search provider refused the query", retryable: false };
  }
  if (body.place_results && typeof body.place_results === "object") {
    const one = placeOf(body.place_results as Record<string, unknown>, 0);
    return { ok: true, places: one ? [one] : [] };
  }
  const list = Array.isArray(body.local_results) ? (body.local_results as Record<string, unknown>[]) : [];
  return { ok: true, places: list.map(placeOf).filter((p): p is MapsPlace => p !== null) };
}

/** Google's organic results for the keyword at the area, up to 100. */
export async function searchOrganic(env: Env, query: { q: string; location: string }, timeoutMs: number): Promise<OrganicOutcome> {
  const got = await serpGet(env, { engine: "google", q: query.q, location: query.location, num: "100", hl: "en", gl: "us" }, timeoutMs);
  if (!got.ok) return got;
  const body = got.body;
  if (typeof body.error === "string") {
    if (/hasn't returned any results|no results/i.test(body.error)) return { ok: true, links: [] };
    return { ok: false, reason: "the search provider refused the query", retryable: false };
  }
  const list = Array.isArray(body.organic_results) ? (body.organic_results as Record<string, unknown>[]) : [];
  return {
    ok: true,
    links: list
      .map((r, i) => ({ position: num(r.position) ?? i + 1, link: str(r.link) ?? "" }))
      .filter((r) => /^https?:\/\//.test(r.link)),
  };
}

export type WebResult = { position: number; title: string; link: string; snippet: string };
export type WebOutcome = { ok: true; results: WebResult[] } | ProviderFailure;

/**
 * A plain Google web search (the Citation Tracker's `site:<domain> …` lookups): the organic results with their title
 * and snippet (SerpAPI's `organic_results`; tests/fakes/fixtures/serpapi-organic-results.json). "No results" is an
 * answer (an empty list), never a failure.
 */
export async function searchWeb(env: Env, q: string, timeoutMs: number): Promise<WebOutcome> {
  const got = await serpGet(env, { engine: "google", q, hl: "en", gl: "us" }, timeoutMs);
  if (!got.ok) return got;
  const body = got.body;
  if (typeof body.error === "string") {
    if (/hasn't returned any results|no results/i.test(body.error)) return { ok: true, results: [] };
    log.warn("local-search: provider error", { detail: body.error.slice(0, 300) });
    return { ok: false, reason: "the search provider refused the query", retryable: false };
  }
  const list = Array.isArray(body.organic_results) ? (body.organic_results as Record<string, unknown>[]) : [];
  return {
    ok: true,
    results: list
      .map((r, i) => ({ position: num(r.position) ?? i + 1, title: str(r.title) ?? "", link: str(r.link) ?? "", snippet: str(r.snippet) ?? "" }))
      .filter((r) => /^https?:\/\//.test(r.link)),
  };
}
