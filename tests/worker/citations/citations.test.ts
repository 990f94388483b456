// The Citation Tracker (issue 27) through the real citations consumer against the fake directory web
// (tests/fakes/citation-web.ts): every trap's verdict and evidence, redelivery searching nothing twice, a failed search
// retried (unknown, never not_found) and dead-lettered, a run past the allowance making no call, the plan limit,
// permissions, the CSV, and the cron re-scanning each due business once.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import type { CitationsMessage, Env } from "../../../worker/platform/env";
import { CITATIONS_MAX_RETRIES, CITATION_RESCAN_AFTER_MS } from "../../../worker/features/citations/config";
import { sweepCitations } from "../../../worker/features/citations/scan";
import { SEARCHED_SOURCES } from "../../../worker/features/citations/rules/sources";
import { expectedSourcesText, type CitationEstimate, type CitationScanView, type CitationScanSummaryRow } from "../../../worker/features/citations/rules/citations";
import { CITATION_BUSINESS, CITATION_COMPETITORS, CITATION_TRAPS } from "../../fakes/citation-web";
import { consumerSettings, deliver, drainQueue, queueEnv } from "../reports/reports-fixtures";
import { callWorker, setAllowance, signUp, signUpAdmin } from "../helpers";

type CitEnv = { env: Env; sent: CitationsMessage[] };

const citEnv = (overrides: Partial<Env> = {}): CitEnv => queueEnv<CitationsMessage>("CITATIONS", overrides);
const bind = (t: CitEnv) => t.env as unknown as Record<string, unknown>;

/** Delivers what was sent through the real consumer; a retried message comes back with attempts + 1, the last one to the DLQ. */
async function drain(t: CitEnv) {
  return (await drainQueue("citations", t, { maxRetries: CITATIONS_MAX_RETRIES, rounds: 20 })).log;
}

type Req = { q: string; engine?: string; status?: number };
async function searchRequests(): Promise<Req[]> {
  return ((await (await fetch(`${env.SERPAPI_BASE_URL}/__requests`)).json()) as { requests: Req[] }).requests;
}
/**
 * The directory searches (`site:` queries, the Citation Tracker's alone) since `before`: the search fake also answers
 * the other worker's test files at the same time (rank, audits, AI Visibility).
 */
async function directorySearchesSince(before: number): Promise<Req[]> {
  return (await searchRequests()).slice(before).filter((r) => r.q.startsWith("site:"));
}

const PROFILE = {
  company_name: CITATION_BUSINESS.name,
  company_location: CITATION_BUSINESS.address,
  company_phone: CITATION_BUSINESS.phone,
  company_website: CITATION_BUSINESS.website,
  company_category: "Plumbing",
};

/** An audit of the user's own business, as the audit stores it: the Google listing and the map pack's competitors with their phones. */
async function seedAudit(userId: string, listing: { address: string; phone: string }) {
  const id = crypto.randomUUID();
  const now = new Date(Date.now() - 60_000).toISOString();
  const find = { status: "found", candidates: [], listing: { name: "Joe's Plumbing", address: listing.address, phone: listing.phone, website: CITATION_BUSINESS.website, placeId: "ChIJfake-joes", latitude: 30.27, longitude: -97.74, mapsUrl: "https://www.google.com/maps/place/?q=place_id:ChIJfake-joes" } };
  const rank = {
    rank: { status: "ok", keyword: "plumbing", area: "Austin, TX", mapPosition: 4, mapResultsChecked: 20, organicPosition: null, organicResultsChecked: 0 },
    competitors: { status: "ok", competitors: CITATION_COMPETITORS.map((c) => ({ name: c.name, rating: 4.6, reviewCount: 100, phone: c.phone })) },
    hasWebsite: true,
  };
  await env.DB.batch([
    env.DB.prepare("insert into audits (id, kind, user_id, subject, status, created_at, finished_at) values (?, 'own', ?, ?, 'done', ?, ?)").bind(id, userId, JSON.stringify({ name: "Joe's Plumbing", website: CITATION_BUSINESS.website, keyword: "plumbing", area: "Austin, TX", phone: CITATION_BUSINESS.phone, address: CITATION_BUSINESS.address }), now, now),
    env.DB.prepare("insert into audit_steps (audit_id, step, status, result, finished_at) values (?, 'find', 'done', ?, ?)").bind(id, JSON.stringify(find), now),
    env.DB.prepare("insert into audit_steps (audit_id, step, status, result, finished_at) values (?, 'rank', 'done', ?, ?)").bind(id, JSON.stringify(rank), now),
  ]);
}

async function owner(t: CitEnv, profile: Record<string, string> = PROFILE) {
  const user = await signUp();
  const token = user.session.access_token;
  const put = await callWorker("/api/profile", { method: "PUT", token, json: profile }, bind(t));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { user, token, userId: user.user.id };
}

async function readScan(t: CitEnv, token: string, id: string): Promise<CitationScanView> {
  const res = await callWorker(`/api/citations/scans/${id}`, { token }, bind(t));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CitationScanView;
}

describe("citations settings", () => {
  it("keeps the consumer's max_retries and its dead-letter queue in wrangler.toml", () => {
    const block = consumerSettings("citations", CITATIONS_MAX_RETRIES);
    for (const setting of ["max_batch_size", "max_batch_timeout", "max_concurrency", "retry_delay"]) expect(block).toMatch(new RegExp(`^${setting} = \\d+`, "m"));
    expect(wranglerToml).toMatch(/\[\[queues\.consumers\]\]\s*\nqueue = "citations-dlq"/);
  });
});

describe("a scan of the fake directory web", () => {
  it("gives every trap its verdict with the evidence, searches each source twice and nothing twice on redelivery", async () => {
    const t = citEnv();
    const { token, userId } = await owner(t);
    await seedAudit(userId, { address: "1200 Main Street #300, Austin, TX 78701", phone: "+1 512-555-0142" });

    const estimate = await callWorker("/api/citations/scans?estimate=1", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(estimate.status).toBe(200);
    expect(estimate.body as CitationEstimate).toMatchObject({ searches: SEARCHED_SOURCES.length * 2, allowed: true });

    const before = (await searchRequests()).length;
    const started = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const view = started.body as CitationScanView;
    expect(view.status).toBe("queued");
    expect(view.competitors.map((c) => c.name)).toEqual(CITATION_COMPETITORS.map((c) => c.name));
    // Google's comes from the audit at once; the manual sources say they have no lookup.
    expect(view.sources.find((s) => s.source === "google")).toMatchObject({ state: "done", verdict: "consistent" });
    expect(view.sources.find((s) => s.source === "apple")).toMatchObject({ state: "done", verdict: "unknown", fix_url: "https://businessconnect.apple.com/" });
    expect(view.sources.find((s) => s.source === "apple")!.evidence).toMatch(/No lookup exists/);
    expect(view.sources.find((s) => s.source === "yelp")).toMatchObject({ state: "pending" });
    // 3 sources a message, each source sent once; no search before the consumer runs.
    expect(t.sent.every((m) => m.sources.length <= 3)).toBe(true);
    expect(t.sent.flatMap((m) => m.sources).sort()).toEqual(SEARCHED_SOURCES.map((s) => s.id).sort());
    expect(await directorySearchesSince(before)).toEqual([]);

    // Every message delivered twice: no source is searched twice.
    t.sent.push(...t.sent.map((m) => ({ ...m, sources: [...m.sources] })));
    await drain(t);
    const searches = await directorySearchesSince(before);
    expect(searches).toHaveLength(SEARCHED_SOURCES.length * 2);
    for (const s of SEARCHED_SOURCES) expect(searches.filter((r) => r.q.startsWith(`site:${s.domain} `)), s.id).toHaveLength(2);
    // The phone search asks for the business's phone with the competitors'.
    expect(searches.find((r) => r.q.startsWith("site:yelp.com "))!.q).toBe('site:yelp.com ("512-555-0142" OR "512-555-0110" OR "512-555-0111")');

    const done = await readScan(t, token, view.id);
    expect(done.status).toBe("done");
    const rows = CITATION_TRAPS.map((trap) => {
      const r = done.sources.find((s) => s.source === trap.source)!;
      return { source: r.name, trap: trap.trap, expected: trap.expect, verdict: r.verdict, evidence: r.evidence };
    });
    // The trap table, printed for the closing note.
    console.log(["TRAP TABLE", ...rows.map((r) => `| ${r.source} | ${r.trap} | ${r.verdict} | ${r.evidence} |`)].join("\n"));
    for (const r of rows) expect(r.verdict, `${r.source}: ${r.trap} — ${r.evidence}`).toBe(r.expected);
    // 0 false `inconsistent` or `not_found` on the traps.
    expect(rows.filter((r) => r.verdict === "inconsistent" && r.expected !== "inconsistent")).toEqual([]);
    expect(rows.filter((r) => r.verdict === "not_found" && r.expected !== "not_found")).toEqual([]);

    const by = (id: string) => done.sources.find((s) => s.source === id)!;
    expect(by("yelp").fields!.street).toMatchObject({ listing: "1200 Main St Ste 300", expected: "1200 Main St, Suite 300", match: "match" });
    expect(by("yelp").url).toBe("https://www.yelp.com/biz/joes-plumbing-austin");
    expect(by("facebook").fields!.phone).toMatchObject({ listing: "(512) 555-0142", match: "match" });
    expect(by("bbb").url).toBe("https://www.bbb.org/us/tx/austin/profile/plumber/joes-plumbing");
    expect(by("bbb").fields!.name).toMatchObject({ listing: "Joe's Plumbing LLC", match: "match" });
    expect(by("yellowpages").fields!.street).toMatchObject({ listing: "900 Old Mill Rd", match: "differs" });
    expect(by("yellowpages").fields!.city_zip).toMatchObject({ listing: "Austin, TX 78745", expected: "Austin, TX 78701", match: "differs" });
    expect(by("yellowpages").evidence).toMatch(/900 Old Mill Rd/);
    expect(by("superpages").listings.map((l) => l.fields.phone.listing).sort()).toEqual(["(512) 555-0100", "(512) 555-0142"]);
    expect(by("foursquare").fields!.phone).toMatchObject({ listing: "(512) 555-0100", expected: "(512) 555-0142", match: "differs" });
    expect(by("angi").fields!.phone).toMatchObject({ listing: "(512) 555-0777", match: "tracking" });
    expect(by("angi").evidence).toMatch(/call-tracking number/);
    expect(by("homeadvisor").evidence).toMatch(/could not be read \(the site answered 403/);
    expect(by("porch").evidence).toMatch(/refused/);
    expect(by("nextdoor").listings[0]).toMatchObject({ from: "snippet" });
    expect(by("nextdoor").evidence).toMatch(/from the search result/);
    expect(by("manta").evidence).toMatch(/^Not found after 2 searches on \d{4}-\d{2}-\d{2}/);
    for (const id of ["houzz", "thumbtack"]) expect(by(id)).toMatchObject({ verdict: "not_found", gap: true, competitors: CITATION_COMPETITORS.map((c) => c.name) });

    expect(done.summary).toMatchObject({ listed: 9, inconsistent: 2, duplicates: 1, unknown: 2, gaps: 2, manual: 4 });
    expect(done.summary.consistent).toBe(6);
    // The fix list: wrong data on the biggest sources first, then the gaps, each with its link.
    const kinds = done.fixes.map((f) => `${f.kind}:${f.source}`);
    expect(kinds.slice(0, 3)).toEqual(["correct:yellowpages", "correct:foursquare", "duplicate:superpages"]);
    expect(kinds).toContain("gap:houzz");
    expect(kinds.indexOf("gap:houzz")).toBeGreaterThan(kinds.indexOf("duplicate:superpages"));
    expect(done.fixes[0]!.corrections).toContainEqual({ field: "street", from: "900 Old Mill Rd", to: "1200 Main St, Suite 300" });
    expect(done.fixes[0]!.url).toBe("https://adsolutions.yp.com/listings/basic");

    const csv = await callWorker(`/api/citations/scans/${view.id}/export.csv`, { token }, bind(t));
    expect(csv.status).toBe(200);
    expect(String(csv.text)).toContain('"Yellowpages","General directory","inconsistent","https://www.yellowpages.com/austin-tx/mip/joes-plumbing-1"');

    const history = await callWorker("/api/citations/scans?business=own", { token }, bind(t));
    expect((history.body as { scans: CitationScanSummaryRow[] }).scans.map((s) => s.id)).toEqual([view.id]);

    // Another user cannot read it; the Free plan's one scan this month is used.
    const other = await signUp();
    expect((await callWorker(`/api/citations/scans/${view.id}`, { token: other.session.access_token }, bind(t))).status).toBe(404);
    const again = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ error: { code: "scan_limit_reached" } });
  }, 60_000);
});

describe("the details compared (issue 39)", () => {
  it("with no street in Business Settings, takes the street from the Google listing the audit found and says so", async () => {
    const t = citEnv();
    const { token, userId } = await owner(t, { ...PROFILE, company_location: "Austin, TX" });
    await seedAudit(userId, { address: CITATION_BUSINESS.address, phone: "+1 512-555-0142" });
    const started = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await drain(t);
    const done = await readScan(t, token, (started.body as CitationScanView).id);
    expect(done.expected).toMatchObject({ street: "1200 Main St, Suite 300", city: "Austin", from: { street: "google", city_zip: "own", phone: "own", website: "own" } });
    expect(expectedSourcesText(done.expected, "own")).toMatch(/^Compared with your Business Settings \(name, city and ZIP, phone, website\) and your Google listing as the Local Search Audit of \d{4}-\d{2}-\d{2} found it \(street address\)\.$/);
    const street = (id: string) => done.sources.find((s) => s.source === id)!.fields?.street.match;
    // Streets are compared: "Ste 300" agrees, the old address differs; Google's own street is not checked against itself.
    expect(street("yelp")).toBe("match");
    expect(street("yellowpages")).toBe("differs");
    expect(street("google")).toBe("not_compared");
    expect(done.sources.every((s) => s.source === "google" || !s.fields || s.fields.street.match !== "not_compared")).toBe(true);
  });
});

describe("failures", () => {
  it("retries a failed search (unknown meanwhile, never not_found) and does not repeat the search that answered", async () => {
    const t = citEnv();
    const { token } = await owner(t, { ...PROFILE, company_name: "Flaky Drain Co" });
    const before = (await searchRequests()).length;
    const started = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(started.status).toBe(201);
    const id = (started.body as CitationScanView).id;
    const message = t.sent.find((m) => m.sources.includes("buildzoom"))!;
    t.sent.length = 0;
    const first = await deliver("citations", [{ body: message, attempts: 1 }], t.env);
    expect(first.result.retryMessages).toHaveLength(1);
    const mid = await readScan(t, token, id);
    expect(mid.sources.find((s) => s.source === "buildzoom")).toMatchObject({ verdict: "unknown", state: "pending" });
    expect(mid.sources.find((s) => s.source === "buildzoom")!.evidence).toMatch(/tried again/);
    await deliver("citations", [{ body: message, attempts: 2 }], t.env);
    const after = await readScan(t, token, id);
    expect(after.sources.find((s) => s.source === "buildzoom")).toMatchObject({ verdict: "not_found", searches: 2 });
    const bz = (await searchRequests()).slice(before).filter((r) => r.q.startsWith("site:buildzoom.com"));
    // The phone search answered the first time and is not made again; the name search twice (500, then 200).
    expect(bz.map((r) => r.status)).toEqual(expect.arrayContaining([200, 500, 200]));
    expect(bz.filter((r) => r.q.includes("555-0142"))).toHaveLength(1);
  });

  it("stores a source whose searches never succeed as unknown on its last try, and through the dead-letter queue", async () => {
    const t = citEnv();
    const { token } = await owner(t, { ...PROFILE, company_name: "Fail500 Plumbing" });
    const started = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    const id = (started.body as CitationScanView).id;
    t.sent.splice(1);
    const deliveries = await drain(t);
    // Four retries, then the last delivery stores the failure and acks.
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "retry", "retry", "retry", "ack"]);
    // A message whose consumer itself kept failing reaches the dead-letter queue: its sources are stored unknown.
    const lost = (started.body as CitationScanView).sources.filter((s) => s.state === "pending").map((s) => s.source).slice(3, 6);
    await deliver("citations-dlq", [{ body: { scanId: id, sources: lost }, attempts: 5 }], t.env);
    const view = await readScan(t, token, id);
    const failed = view.sources.filter((s) => s.state === "done" && s.lookup === "search");
    expect(failed).toHaveLength(6);
    for (const s of failed) {
      expect(s.verdict).toBe("unknown");
      expect(s.evidence).toMatch(/not a "not listed"/);
    }
  });

  it("answers 402 past the allowance before any search or message", async () => {
    const t = citEnv();
    const { token, userId } = await owner(t);
    await setAllowance(userId, 0.1, bind(t));
    const estimate = await callWorker("/api/citations/scans?estimate=1", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(estimate.body).toMatchObject({ allowed: false, allowanceLeftUsd: 0.1 });
    const before = (await searchRequests()).length;
    const res = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: { code: "allowance_exceeded" } });
    expect(t.sent).toEqual([]);
    expect(await directorySearchesSince(before)).toEqual([]);
  });

  it("without search refuses with search_unavailable in the customer's words, admins too, and stores nothing", async () => {
    const t = citEnv({ SERPAPI_KEY: "" });
    const { token } = await owner(t);
    const admin = await signUpAdmin();
    for (const who of [token, admin.session.access_token]) {
      const res = await callWorker("/api/citations/scans", { method: "POST", token: who, json: { business: "own" } }, bind(t));
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("search_unavailable");
      expect(res.body.error.message).toContain("isn't available yet; your agency has been told");
      expect(res.body.error.message).not.toMatch(/SERPAPI|on this server/);
    }
    expect(t.sent).toEqual([]);
    expect((await callWorker("/api/citations/scans?business=own", { token }, bind(t))).body.scans).toEqual([]);
  });
});

describe("permissions", () => {
  it("lets admins scan prospects and refuses users", async () => {
    const t = citEnv();
    const user = await signUp();
    const admin = await signUpAdmin();
    const prospect = crypto.randomUUID();
    await env.DB.prepare("insert into prospects (id, name, company_name, area, phone, website) values (?, ?, ?, ?, ?, ?)").bind(prospect, "Joe Smith", "Joe's Plumbing", "Austin, TX", CITATION_BUSINESS.phone, CITATION_BUSINESS.website).run();
    expect((await callWorker("/api/citations/scans", { method: "POST", token: user.session.access_token, json: { business: prospect } }, bind(t))).status).toBe(403);
    expect((await callWorker(`/api/citations/scans?business=${prospect}`, { token: user.session.access_token }, bind(t))).status).toBe(403);
    const made = await callWorker("/api/citations/scans", { method: "POST", token: admin.session.access_token, json: { business: prospect } }, bind(t));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((made.body as CitationScanView).business).toMatchObject({ kind: "prospect", prospectId: prospect });
    expect((await callWorker(`/api/citations/scans/${(made.body as CitationScanView).id}`, { token: user.session.access_token }, bind(t))).status).toBe(404);
    const missing = await callWorker("/api/citations/scans", { method: "POST", token: admin.session.access_token, json: { business: crypto.randomUUID() } }, bind(t));
    expect(missing.status).toBe(404);
    const sources = await callWorker("/api/citations/sources", { token: user.session.access_token }, bind(t));
    expect((sources.body as { sources: unknown[] }).sources.length).toBeGreaterThanOrEqual(28);
  });
});

describe("the monthly re-scan", () => {
  it("re-scans each due business once, however often the cron runs", async () => {
    const t = citEnv();
    const { token, userId } = await owner(t);
    const started = await callWorker("/api/citations/scans", { method: "POST", token, json: { business: "own" } }, bind(t));
    expect(started.status).toBe(201);
    t.sent.length = 0;
    const later = Date.now() + CITATION_RESCAN_AFTER_MS + 60_000;
    await Promise.all([sweepCitations(t.env, later), sweepCitations(t.env, later)]);
    await sweepCitations(t.env, later + 60_000);
    const scans = await env.DB.prepare("select trigger from citation_scans where user_id = ? order by created_at").bind(userId).all<{ trigger: string }>();
    expect(scans.results.map((r) => r.trigger)).toEqual(["manual", "cron"]);
  });
});
