// Google PageSpeed Insights v5 (issue 18's page-speed step): mobile strategy, performance score, LCP, INP and CLS from
// real visitors' data (CrUX, `loadingExperience`) when Google has it, else from the Lighthouse lab run. PAGESPEED_API_KEY
// is optional (keyless calls work at a low quota); PAGESPEED_BASE_URL points tests at the fake.
import type { PageSpeedInput } from "./rules/website";
import type { Env } from "../env";
import { getProviderJson, type JsonProvider, type ProviderFailure } from "./json-get";

const DEFAULT_BASE_URL = "https://www.googleapis.com";

export type PageSpeedOutcome = { ok: true; value: Extract<PageSpeedInput, { status: "ok" }> } | ProviderFailure;

type Metric = { percentile?: unknown };

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Reads the API's answer: field data when it has LCP, else lab. Exported for its table test. */
export function readPageSpeed(body: Record<string, unknown>): Extract<PageSpeedInput, { status: "ok" }> | null {
  const lighthouse = (body.lighthouseResult ?? {}) as Record<string, unknown>;
  const categories = (lighthouse.categories ?? {}) as Record<string, { score?: unknown }>;
  const rawScore = num(categories.performance?.score);
  const performanceScore = rawScore === null ? null : Math.round(rawScore * 100);
  const field = ((body.loadingExperience as Record<string, unknown> | undefined)?.metrics ?? {}) as Record<string, Metric>;
  const fieldLcp = num(field.LARGEST_CONTENTFUL_PAINT_MS?.percentile);
  if (fieldLcp !== null) {
    const clsPercentile = num(field.CUMULATIVE_LAYOUT_SHIFT_SCORE?.percentile);
    return {
      status: "ok",
      performanceScore,
      lcpMs: fieldLcp,
      inpMs: num(field.INTERACTION_TO_NEXT_PAINT?.percentile),
      // CrUX gives CLS × 100 as an integer percentile.
      cls: clsPercentile === null ? null : clsPercentile / 100,
      source: "field",
    };
  }
  const audits = (lighthouse.audits ?? {}) as Record<string, { numericValue?: unknown }>;
  const lcp = num(audits["largest-contentful-paint"]?.numericValue);
  const cls = num(audits["cumulative-layout-shift"]?.numericValue);
  if (performanceScore === null && lcp === null && cls === null) return null;
  // A lab run has no INP (it needs real taps); the check says so.
  return { status: "ok", performanceScore, lcpMs: lcp, inpMs: null, cls, source: "lab" };
}

/** Production may call keyless (a low quota); locally (development) only with a key or a base URL (a fake). */
export function pagespeedConfigured(env: Env): boolean {
  if (env.ENVIRONMENT !== "development") return true;
  return Boolean(env.PAGESPEED_API_KEY?.trim() || env.PAGESPEED_BASE_URL?.trim());
}

const PAGESPEED: JsonProvider = {
  name: "PageSpeed Insights",
  logUnreachable: "pagespeed: unreachable",
  logRefused: "pagespeed: refused",
  busy: "PageSpeed Insights is over its quota (429)",
  // 400/500 with "Lighthouse returned error" is the page failing to load in Google's test: not worth retrying.
  retryable: (status) => status === 429 || status === 503,
  notJson: "PageSpeed Insights' answer was not JSON",
};

export async function runPageSpeed(env: Env, pageUrl: string, timeoutMs: number): Promise<PageSpeedOutcome> {
  const base = (env.PAGESPEED_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const url = new URL(`${base}/pagespeedonline/v5/runPagespeed`);
  url.searchParams.set("url", pageUrl);
  url.searchParams.set("strategy", "mobile");
  url.searchParams.set("category", "performance");
  if (env.PAGESPEED_API_KEY) url.searchParams.set("key", env.PAGESPEED_API_KEY);
  const got = await getProviderJson(PAGESPEED, url, timeoutMs);
  if (!got.ok) return got;
  const value = readPageSpeed(got.body);
  return value ? { ok: true, value } : { ok: false, reason: "PageSpeed Insights returned no figures", retryable: false };
}
