// The audit (issue 18) through the real `audits` queue consumer against the fakes: the fake search (google_maps,
// google num=100), the fake PageSpeed and the fake small-business website with its traps, all on loopback.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import { AUDITS_MAX_RETRIES } from "../../../worker/features/audits/config";
import { fetchWebsite, PAGE_CAPS } from "../../../worker/platform/providers/website";
import type { AuditView } from "../../../worker/features/audits/rules/view";
import { FAKE_COMPETITORS, FAKE_FIELD, FAKE_SITE_BUSINESS, FAKE_SITE_DESCRIPTION, FAKE_SITE_TITLE } from "../../fakes/audit-data";
import {
  auditAdmin,
  auditEnv,
  bindings,
  checkOf,
  drain,
  makeProspect,
  readAudit,
  searchRequests,
  siteRequests,
  startProspectAudit,
} from "./audit-fixtures";
import { callWorker, signUp } from "../helpers";
import { consumerSettings } from "../reports/reports-fixtures";

const SITE = () => `${env.TEST_WEBSITE_URL}/site/`;

async function auditOf(name: string, website: string, extra: { keyword?: string; phone?: string } = {}) {
  const t = auditEnv();
  const prospectId = await makeProspect(t, { name, website, phone: extra.phone ?? FAKE_SITE_BUSINESS.phone, keyword: extra.keyword ?? FAKE_SITE_BUSINESS.keyword });
  const started = await startProspectAudit(t, prospectId);
  const run = await drain(t);
  return { t, prospectId, started, run, view: await readAudit(t, started.id) };
}

/** The sample audit of the fake site: every check with its verdict and evidence (the closing note's sample). */
function sampleMarkdown(view: AuditView): string {
  const lines = [
    `# Sample audit: ${view.subject.name} (${view.subject.website})`,
    "",
    `Keyword "${view.subject.keyword}" in ${view.subject.area}; audited ${view.createdAt}. SEO potential (overall): **${view.score.overall}**/100.`,
    "",
    "| section | score | known/total |",
    "|---|---|---|",
    ...view.score.sections.map((s) => `| ${s.label} | ${s.score ?? "no data"} | ${s.known}/${s.total} |`),
    "",
    "| check | section | verdict | evidence |",
    "|---|---|---|---|",
    ...view.checks.map((c) => `| ${c.id} | ${c.section} | ${c.verdict} | ${c.evidence.replace(/\|/g, "\\|")} |`),
    "",
    "Fix first:",
    ...view.fixFirst.map((f, i) => `${i + 1}. (+${f.points}) ${f.check.evidence}`),
    "",
    `Competitors: ${view.competitors.map((c) => `${c.name} ${c.rating}★ (${c.reviewCount})`).join("; ")}`,
    `Steps: ${Object.entries(view.steps).map(([k, s]) => `${k}=${s.status}`).join(", ")}`,
  ];
  return lines.join("\n");
}

describe("audits settings", () => {
  it("keeps the audits consumer's max_retries and dead-letter queue in wrangler.toml", () => {
    consumerSettings("audits", AUDITS_MAX_RETRIES);
    expect(wranglerToml).toMatch(/queue = "audits-dlq"/);
  });
});

describe("a full audit of the fake site", () => {
  it("runs every step through the queue and makes every check with evidence; the traps give no false flags", async () => {
    const { view, run } = await auditOf(`Joe's Plumbing`, SITE());
    expect(view.status).toBe("done");
    expect(Object.values(view.steps).map((s) => s.status)).toEqual(["done", "done", "done", "done"]);
    // Each step ran exactly once (one ack per step, no retries).
    expect(run.log.filter((d) => d.outcome === "ack").map((d) => d.message.step).sort()).toEqual(["fetch", "find", "rank", "speed"]);

    // The listing: picked by name and phone, with what the audit keeps of it.
    expect(view.listing).toMatchObject({ name: FAKE_SITE_BUSINESS.name, placeId: FAKE_SITE_BUSINESS.placeId, rating: 4.3, reviewCount: 38 });
    expect(view.listing!.latitude).toBeTypeOf("number");
    expect(view.site).toMatchObject({ finalUrl: SITE(), title: FAKE_SITE_TITLE, metaDescription: FAKE_SITE_DESCRIPTION });

    // The traps: DBA/legal suffix, suite number, formatted and call-tracking phones are not flagged.
    for (const id of ["name_matches", "address_matches", "phone_matches", "phone_on_page", "phone_clickable", "local_business_schema"]) {
      expect(checkOf(view, id).verdict, `${id}: ${checkOf(view, id).evidence}`).toBe("pass");
    }
    for (const id of ["title", "meta_description", "h1", "canonical", "viewport", "lang", "noindex", "open_graph", "analytics", "gbp_found", "gbp_categories", "gbp_hours", "gbp_website", "review_count"]) {
      expect(checkOf(view, id).verdict, `${id}: ${checkOf(view, id).evidence}`).toBe("pass");
    }
    expect(checkOf(view, "analytics").evidence).toContain("Google Analytics");
    // Page speed: field data from the fake (LCP 3.1 s is "needs improvement"; INP and CLS good).
    expect(view.pageSpeed).toMatchObject({ status: "ok", source: "field", lcpMs: FAKE_FIELD.lcpMs, inpMs: FAKE_FIELD.inpMs, cls: FAKE_FIELD.clsX100 / 100 });
    expect(checkOf(view, "lcp").verdict).toBe("warn");
    expect(checkOf(view, "inp").verdict).toBe("pass");
    expect(checkOf(view, "cls").verdict).toBe("pass");
    // Rank: 4th in the map pack (the fake puts Joe's there), 7th organic; the top three are the competitors.
    expect(view.rank).toMatchObject({ status: "ok", mapPosition: 4, organicPosition: 7, mapResultsChecked: 20, organicResultsChecked: 100 });
    expect(checkOf(view, "map_pack_position").verdict).toBe("warn");
    expect(checkOf(view, "organic_position").verdict).toBe("pass");
    expect(view.competitors.map((c) => c.name)).toEqual(FAKE_COMPETITORS.map((c) => c.title));
    expect(checkOf(view, "competitor_reviews").verdict).toBe("fail");
    // Served over http on loopback: the https check says so (the fake site has no TLS).
    expect(checkOf(view, "https").verdict).toBe("fail");

    expect(view.score.overall).toBeGreaterThan(0);
    expect(view.score.noData).toEqual([]);
    expect(view.fixFirst.length).toBeGreaterThan(0);
    expect(view.checks.every((c) => c.evidence.length > 0)).toBe(true);
    console.log(`AUDIT-SAMPLE-BEGIN\n${sampleMarkdown(view)}\nAUDIT-SAMPLE-END`);
  });

  it("never does a step twice when a message is delivered again", async () => {
    const t = auditEnv();
    const name = `Twice Plumbing ${crypto.randomUUID().slice(0, 6)}`;
    const prospectId = await makeProspect(t, { name, website: SITE() });
    const started = await startProspectAudit(t, prospectId);
    // Every message sent twice, as an at-least-once queue may.
    t.sent.push(...t.sent.map((m) => ({ ...m })));
    await drain(t);
    const view = await readAudit(t, started.id);
    expect(view.status).toBe("done");
    const finds = (await searchRequests()).filter((r) => r.engine === "google_maps" && r.q.startsWith(name));
    expect(finds).toHaveLength(1);
  });

  it("without a search key the website checks still run and find/rank say why they were skipped", async () => {
    const t = auditEnv({ SERPAPI_KEY: "" });
    const prospectId = await makeProspect(t, { name: `Keyless Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: SITE() });
    const started = await startProspectAudit(t, prospectId);
    expect(started.steps.find.status).toBe("skipped");
    await drain(t);
    const view = await readAudit(t, started.id);
    expect(view.status).toBe("done");
    expect(view.steps.find).toMatchObject({ status: "skipped", code: "search_unavailable", reason: "Google search isn't available yet" });
    expect(view.steps.rank.status).toBe("skipped");
    expect(checkOf(view, "title").verdict).toBe("pass");
    expect(checkOf(view, "gbp_found").verdict).toBe("unknown");
    expect(checkOf(view, "map_pack_position").verdict).toBe("unknown");
    expect(view.score.noData).toEqual(expect.arrayContaining(["google_business_profile", "local_rank", "competitors"]));
  });
});

describe("each provider failing alone", () => {
  it("search down (500 on every try): listing and rank checks are unknown, never fail; the website checks stand", async () => {
    const { view, run } = await auditOf(`Fail500 Plumbing`, SITE(), { keyword: "fail500 plumber" });
    expect(view.status).toBe("done");
    expect(view.steps.find.status).toBe("failed");
    expect(view.steps.rank.status).toBe("failed");
    // Retried as the queue would, then given up.
    expect(run.log.filter((d) => d.message.step === "find" && d.outcome === "retry").length).toBe(AUDITS_MAX_RETRIES);
    for (const id of ["gbp_found", "rating", "map_pack_position", "organic_position", "competitor_rating", "name_matches"]) {
      expect(checkOf(view, id).verdict, id).toBe("unknown");
    }
    expect(checkOf(view, "title").verdict).toBe("pass");
    expect(view.pageSpeed?.status).toBe("ok");
  });

  it("PageSpeed failing: only the speed checks are unknown, with the reason", async () => {
    const { view } = await auditOf(`Joe's Plumbing`, `${SITE()}?psfail=1`);
    expect(view.steps.speed.status).toBe("failed");
    expect(checkOf(view, "lcp")).toMatchObject({ verdict: "unknown", reason: expect.stringContaining("PageSpeed") });
    expect(checkOf(view, "gbp_found").verdict).toBe("pass");
    expect(checkOf(view, "title").verdict).toBe("pass");
  });

  it("the website too slow: its checks are unknown with the reason; listing, speed and rank stand", async () => {
    const { view } = await auditOf(`Joe's Plumbing`, `${env.TEST_WEBSITE_URL}/slow/?ms=8000`);
    // The step says it failed (issue 26: never "Done" beside checks that say the site could not be fetched).
    expect(view.steps.fetch).toMatchObject({ status: "failed", reason: expect.stringContaining("did not answer") });
    expect(checkOf(view, "title")).toMatchObject({ verdict: "unknown", reason: expect.stringContaining("did not answer") });
    expect(checkOf(view, "website_present").verdict).toBe("unknown");
    expect(checkOf(view, "gbp_found").verdict).toBe("pass");
    expect(checkOf(view, "map_pack_position").verdict).toBe("warn");
  });
});

describe("the website fetch", () => {
  it("refuses a redirect to a private address before any request is made to it", async () => {
    const requested: string[] = [];
    const recording = (url: string, init: RequestInit) => {
      requested.push(url);
      return fetch(url, init);
    };
    const before = (await siteRequests()).length;
    const got = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/private/`, 3000, recording);
    expect(got).toMatchObject({ ok: false, code: "address_private" });
    // Only the loopback page was requested; the private target never was.
    expect(requested).toEqual([`${env.TEST_WEBSITE_URL}/private/`]);
    expect((await siteRequests()).slice(before).map((r) => r.path)).toEqual(["/private/"]);
    const metadata = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/metadata/`, 3000, recording);
    expect(metadata).toMatchObject({ ok: false, code: "address_link_local" });
    expect(requested).not.toContain("http://169.254.169.254/latest/meta-data/");
  });

  it("resolves a redirect's host name and refuses it when it points at the metadata address, before requesting it", async () => {
    const requested: string[] = [];
    const recording = (url: string, init: RequestInit) => {
      requested.push(url);
      return fetch(url, init);
    };
    const got = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/rebind/`, 3000, recording);
    expect(got).toMatchObject({ ok: false, code: "address_link_local", reason: expect.stringContaining("metadata.rebind.example resolves to 169.254.169.254") });
    expect(requested).toEqual([`${env.TEST_WEBSITE_URL}/rebind/`]);
  });

  it("refuses a starting name that resolves to a private or loopback address, even with AUDIT_ALLOW_LOOPBACK", async () => {
    const requested: string[] = [];
    const recording = (url: string, init: RequestInit) => {
      requested.push(url);
      return fetch(url, init);
    };
    expect(await fetchWebsite(env, "169.254.169.254.nip.io/latest/meta-data/", 3000, recording)).toMatchObject({ ok: false, code: "address_link_local" });
    expect(await fetchWebsite(env, "http://127.0.0.1.nip.io/", 3000, recording)).toMatchObject({ ok: false, code: "address_loopback" });
    expect(await fetchWebsite(env, "http://no-such-name.example/", 3000, recording)).toMatchObject({ ok: false, code: "dns_not_found" });
    expect(requested).toEqual([]);
  });

  it("refuses to fetch a name when the resolver cannot be reached (fail closed), saying so", async () => {
    const requested: string[] = [];
    const got = await fetchWebsite({ ...env, DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query" }, "http://www.joes-plumbing.example/", 3000, (u, i) => {
      requested.push(u);
      return fetch(u, i);
    });
    expect(got).toMatchObject({ ok: false, code: "dns_unavailable", reason: "the address was refused: www.joes-plumbing.example could not be looked up just now; try again later." });
    expect(requested).toEqual([]);
  });

  it("fetches a name that resolves to public addresses only (answered here by a recording fetcher, never the network)", async () => {
    const requested: string[] = [];
    const got = await fetchWebsite(env, "www.joes-plumbing.example", 3000, async (u) => {
      requested.push(u);
      return new Response("<html><head><title>Joe's Plumbing in Austin, TX — licensed plumbers</title></head><body><h1>Joe's</h1></body></html>", { headers: { "Content-Type": "text/html" } });
    });
    expect(got.ok && got.page.facts.title).toBe("Joe's Plumbing in Austin, TX — licensed plumbers");
    expect(requested).toEqual(["http://www.joes-plumbing.example/"]);
  });

  it("caps what a hostile page can put in the audit: title, JSON-LD, tel: links, Open Graph", async () => {
    const got = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/hostile/`, 3000);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    const f = got.page.facts;
    expect(f.title!.length).toBe(PAGE_CAPS.fieldChars);
    expect(f.jsonLd.length).toBeLessThanOrEqual(PAGE_CAPS.jsonLdBlocks);
    expect(f.jsonLd.length).toBeGreaterThan(0);
    expect(f.jsonLd.join("").length).toBeLessThanOrEqual(PAGE_CAPS.jsonLdChars);
    expect(f.telLinks).toHaveLength(PAGE_CAPS.telLinks);
    expect(f.telLinks[0]).toBe("tel:+15125550000");
    expect(Object.keys(f.openGraph)).toHaveLength(PAGE_CAPS.openGraphTags);
    expect(f.openGraph["og:title"]!.length).toBe(PAGE_CAPS.fieldChars);
    // What the audit stores stays small: under half a megabyte of the 1.3 MB page.
    expect(JSON.stringify(f).length).toBeLessThan(500_000);
  });

  it("refuses loopback unless AUDIT_ALLOW_LOOPBACK, without requesting it", async () => {
    const requested: string[] = [];
    const got = await fetchWebsite({ ...env, AUDIT_ALLOW_LOOPBACK: "" }, SITE(), 3000, (u, i) => {
      requested.push(u);
      return fetch(u, i);
    });
    expect(got).toMatchObject({ ok: false, code: "address_loopback" });
    expect(requested).toEqual([]);
  });

  it.each([
    ["/loop/", { ok: false, code: "redirect_loop" }],
    ["/chain/6/", { ok: false, code: "too_many_redirects" }],
  ])("%s is given up with its reason", async (path, expected) => {
    expect(await fetchWebsite(env, `${env.TEST_WEBSITE_URL}${path}`, 3000)).toMatchObject(expected);
  });

  it("follows a host-changing redirect (www → non-www style) and five redirects in a row", async () => {
    const www = await fetchWebsite(env, `http://localhost:${new URL(env.TEST_WEBSITE_URL).port}/www/`, 3000);
    expect(www.ok && www.page.facts.redirectChain).toEqual([`http://localhost:${new URL(env.TEST_WEBSITE_URL).port}/www/`, SITE()]);
    expect(www.ok && www.page.facts.title).toBe(FAKE_SITE_TITLE);
    const five = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/chain/5/`, 3000);
    expect(five.ok && five.page.facts.finalUrl).toBe(SITE());
  });

  it("reads the first 2 MB of a longer page, decodes windows-1252 and sees each trap", async () => {
    const big = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/big/`, 3000);
    expect(big.ok && big.page).toMatchObject({ truncated: true, bytes: 2 * 1024 * 1024 });
    expect(big.ok && big.page.facts.title).toBe("A very long page of plumbing articles");
    const latin1 = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/latin1/`, 3000);
    expect(latin1.ok && latin1.page.facts.title).toBe("Café Plómeros – fontanería en Austin");
    expect(latin1.ok && latin1.page.facts.text).toContain("Señor Núñez");
    const two = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/two-h1/`, 3000);
    expect(two.ok && two.page.facts.h1Count).toBe(2);
    const noindex = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/noindex/`, 3000);
    expect(noindex.ok && noindex.page.facts.noindex).toBe(true);
    const bad = await fetchWebsite(env, `${env.TEST_WEBSITE_URL}/bad-jsonld/`, 3000);
    expect(bad.ok && bad.page.facts.jsonLd).toHaveLength(1);
    const home = await fetchWebsite(env, SITE(), 3000);
    expect(home.ok && home.page.facts).toMatchObject({ h1Count: 1, noindex: false, lang: "en-US", telLinks: ["tel:+15125550142"] });
    expect(home.ok && home.page.facts.text).not.toContain("gtag(");
  });
});

describe("the audit routes", () => {
  it("refuse a non-admin a prospect's audit, answer an own-business audit only to its owner, and keep view-as read-only", async () => {
    const t = auditEnv();
    const prospectId = await makeProspect(t, { name: `Perm Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: SITE() });
    const user = await signUp();
    const tokenOf = (u: { session: { access_token: string } }) => u.session.access_token;
    expect((await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { prospectId } }, bindings(t))).body.error.code).toBe("admin_required");
    // Own business without a profile: a clear error with a stable code.
    const incomplete = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error.code).toBe("profile_required");
    await callWorker("/api/profile", { method: "PUT", token: tokenOf(user), json: { company_name: "Joe's Plumbing", company_location: "1200 Main St, Suite 300, Austin, TX 78701", company_phone: "(512) 555-0142", company_website: SITE(), company_category: "Plumbing" } }, bindings(t));
    const own = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.subject).toMatchObject({ kind: "own", name: "Joe's Plumbing", area: "Austin, TX", keyword: "plumbing", website: SITE() });
    await drain(t);
    const history = await callWorker("/api/audits?own=1", { token: tokenOf(user) }, bindings(t));
    expect(history.body.audits).toHaveLength(1);
    expect(history.body.audits[0]).toMatchObject({ id: own.body.id, status: "done", overall: expect.any(Number) });
    // Someone else cannot read it; an admin reads it only as the user (view-as), and cannot start one that way.
    const other = await signUp();
    expect((await callWorker(`/api/audits/${own.body.id}`, { token: tokenOf(other) }, bindings(t))).status).toBe(404);
    const admin = await auditAdmin();
    expect((await callWorker(`/api/audits/${own.body.id}`, { token: tokenOf(admin) }, bindings(t))).status).toBe(404);
    const viewed = await callWorker(`/api/audits/${own.body.id}`, { token: tokenOf(admin), headers: { "X-View-As": user.user.id } }, bindings(t));
    expect(viewed.status).toBe(200);
    const write = await callWorker("/api/audits", { method: "POST", token: tokenOf(admin), headers: { "X-View-As": user.user.id }, json: { own: true } }, bindings(t));
    expect(write.body.error.code).toBe("view_as_read_only");
    // Re-run only after 7 days: a stable code and when.
    const again = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: "audit_too_recent" }, rerunAfter: expect.any(String), auditId: own.body.id });
  });

  it("answer bad input with a stable code, never a 500", async () => {
    const admin = await auditAdmin();
    const t = auditEnv();
    const token = admin.session.access_token;
    expect((await callWorker("/api/audits", { method: "POST", token, json: { prospectId: 5 } }, bindings(t))).body.error.code).toBe("validation_failed");
    expect((await callWorker("/api/audits", { method: "POST", token, json: { prospectId: "nope" } }, bindings(t))).status).toBe(404);
    expect((await callWorker("/api/audits?prospectId=", { token }, bindings(t))).status).toBe(400);
    expect((await callWorker(`/api/audits/${"x".repeat(80)}`, { token }, bindings(t))).status).toBe(404);
    expect((await callWorker(`/api/audits/${crypto.randomUUID()}/listing`, { method: "POST", token, json: { placeId: "x" } }, bindings(t))).status).toBe(404);
  });

  it("offer candidates when no listing matched, and re-run the dependent checks on the listing picked", async () => {
    const { t, view } = await auditOf(`Nomatch Plumbing`, SITE());
    expect(view.listing).toBeNull();
    expect(checkOf(view, "gbp_found").verdict).toBe("unknown");
    expect(view.candidates.length).toBe(3);
    const admin = await auditAdmin();
    const token = admin.session.access_token;
    const badLink = await callWorker(`/api/audits/${view.id}/listing`, { method: "POST", token, json: { mapsUrl: "https://example.com/x" } }, bindings(t));
    expect(badLink.body.error.code).toBe("listing_choice_invalid");
    const picked = await callWorker(`/api/audits/${view.id}/listing`, { method: "POST", token, json: { placeId: view.candidates[0]!.placeId } }, bindings(t));
    expect(picked.status).toBe(200);
    expect(picked.body.steps.find.status).toBe("pending");
    await drain(t);
    const after = await readAudit(t, view.id);
    expect(after.listing?.placeId).toBe(view.candidates[0]!.placeId);
    expect(checkOf(after, "gbp_found").verdict).toBe("pass");
    expect(after.candidates).toEqual([]);

    // A failed re-run keeps the earlier good listing (never "not found" from a failed call).
    const retry = await callWorker(`/api/audits/${view.id}/listing`, { method: "POST", token, json: { placeId: "ChIJbusy429" } }, bindings(t));
    expect(retry.status).toBe(200);
    await drain(t);
    const kept = await readAudit(t, view.id);
    expect(kept.listing?.placeId).toBe(view.candidates[0]!.placeId);
    expect(kept.steps.find).toMatchObject({ status: "done", reason: expect.stringContaining("earlier result is kept") });
  });
});
