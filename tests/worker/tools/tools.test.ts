// The search tools' API: the live search against the fake provider, its 24-hour D1 cache, sample data, validation.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../../worker/app";
import {
  NO_RESULTS_MESSAGE,
  SAMPLE_DATA_WARNING,
  SEARCH_FIELDS_REQUIRED,
  buildLocalServiceListings,
} from "../../../worker/features/tools/rules/search-tools";
import { api, signUp } from "../helpers";

let token: string;
beforeAll(async () => {
  token = (await signUp()).session.access_token;
});

/** A query nobody else uses, so the cache and the fake's request log belong to this test. */
const unique = (words: string) => `${words} ${crypto.randomUUID().slice(0, 8)}`;

async function providerCalls(q: string): Promise<number> {
  const res = await fetch(`${env.SERPAPI_BASE_URL}/__requests?q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { requests: unknown[] }).requests.length;
}

function search(keyword: string, location = "Austin, TX", t = token) {
  const qs = new URLSearchParams({ keyword, location });
  return api(`/api/tools/google-results?${qs}`, { token: t });
}

describe("GET /api/tools/google-results", () => {
  it("returns the provider's organic results, mapped to the spec's shape, and sends the key only from the server", async () => {
    const q = unique("plumber");
    const res = await search(q);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sample: false, cached: false, warning: null, error: null });
    expect(res.body.results).toHaveLength(5);
    expect(res.body.results[0]).toEqual({
      title: `${q} in Austin, TX - Result 1`,
      snippet: expect.stringContaining(q),
      link: expect.stringMatching(/^https:\/\//),
      displayedLink: expect.stringMatching(/^https:\/\//),
      position: 1,
      // Left out: the customer's browser never calls the search provider's host (issue 26).
      favicon: null,
    });
    const log = await fetch(`${env.SERPAPI_BASE_URL}/__requests?q=${encodeURIComponent(q)}`);
    const { requests } = (await log.json()) as { requests: { apiKey: string; location: string }[] };
    expect(requests).toEqual([expect.objectContaining({ apiKey: "test-serp-key", location: "Austin, TX" })]);
  });

  it("answers a second identical search from the cache without calling the provider, whatever the case and spacing", async () => {
    const q = unique("roofer");
    expect((await search(q)).body.cached).toBe(false);
    const again = await search(`  ${q.toUpperCase()} `, " austin,  tx");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ cached: true, sample: false });
    expect(again.body.results).toHaveLength(5);
    expect(await providerCalls(q)).toBe(1);
  });

  it("asks the provider again once the cached answer is older than 24 hours", async () => {
    const q = unique("painter");
    await search(q);
    await env.DB.prepare("update search_cache set fetched_at = ? where keyword = ?")
      .bind(new Date(Date.now() - 24 * 3600_000 - 1000).toISOString(), q)
      .run();
    expect((await search(q)).body.cached).toBe(false);
    expect(await providerCalls(q)).toBe(2);
  });

  it.each([
    // The status and its reason phrase only: the provider's own texts are logged, never passed on.
    ["fail500", /^SERP API request failed: 500 - Internal Server Error$/],
    ["errorbody", /^SERP API returned error: the search provider refused the query$/],
    ["slow", /^Request timed out after 1 second$/],
  ])("shows sample data with the warning when the provider fails (%s), and never caches the failure", async (word, error) => {
    const q = unique(`hvac ${word}`);
    const res = await search(q);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sample: true, warning: SAMPLE_DATA_WARNING, cached: false });
    expect(res.body.error).toMatch(error);
    expect(res.body.results).toHaveLength(5);
    await search(q);
    expect(await providerCalls(q)).toBe(2);
    const rows = await env.DB.prepare("select count(*) as n from search_cache where keyword = ?").bind(q).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("reports an empty answer as no results, not as sample data, and does not cache it", async () => {
    const q = unique("empty");
    const res = await search(q);
    expect(res.body).toMatchObject({ results: [], sample: false, message: NO_RESULTS_MESSAGE });
    await search(q);
    expect(await providerCalls(q)).toBe(2);
  });

  it("shows sample data with the warning when no search key is configured, and calls nothing", async () => {
    const q = unique("electrician");
    const req = new Request(`http://localhost/api/tools/google-results?keyword=${encodeURIComponent(q)}&location=Austin`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const ctx = createExecutionContext();
    const res = await app.fetch(req, { ...env, SERPAPI_KEY: "" }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    // Said as the other search tools say it (search isn't available yet), not "Unable to fetch results"; nothing about
    // how the server is configured.
    const body = (await res.json()) as { warning: string };
    expect(body).toMatchObject({ sample: true, warning: "Google search isn't available yet; your agency has been told. Showing sample data instead.", error: null });
    expect(body.warning).not.toContain("Unable to fetch");
    expect(await providerCalls(q)).toBe(0);
  });

  it.each([
    ["keyword=&location=Austin"],
    ["keyword=plumber&location=%20%20"],
    ["location=Austin"],
  ])("refuses %s with 400 and the spec's message", async (qs) => {
    const res = await api(`/api/tools/google-results?${qs}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", message: SEARCH_FIELDS_REQUIRED });
  });

  it("needs a signed-in user", async () => {
    const res = await api("/api/tools/google-results?keyword=a&location=b");
    expect(res.status).toBe(401);
  });
});

describe("GET /api/tools/local-services", () => {
  it("returns the five sample listings the pure builder makes for that input", async () => {
    const res = await api("/api/tools/local-services?businessType=Plumber&location=Austin%2C%20TX", { token });
    expect(res.status).toBe(200);
    expect(res.body.sample).toBe(true);
    expect(res.body.listings).toEqual(buildLocalServiceListings({ businessType: "Plumber", location: "Austin, TX" }));
  });

  it("refuses a missing business type with 400", async () => {
    const res = await api("/api/tools/local-services?businessType=&location=Austin", { token });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(SEARCH_FIELDS_REQUIRED);
  });

  it("needs a signed-in user", async () => {
    expect((await api("/api/tools/local-services?businessType=a&location=b")).status).toBe(401);
  });
});
