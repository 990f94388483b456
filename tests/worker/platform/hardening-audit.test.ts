// Issue 26 (hardening, from a first-day walkthrough): customers never read server wording and are told what they can't
// do; the Set-up checklist is the admins'; an audit whose inputs changed runs again at once; the audit's progress never
// contradicts itself and no step waits forever; locally a provider without a key or base URL is not called.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TIMED_OUT_REASON } from "../../../worker/features/audits/config";
import { ownSubject } from "../../../worker/features/audits/subject";
import type { AuditView } from "../../../worker/features/audits/rules/view";
import { searchStart } from "../../../worker/features/tools/rules/search-tools";
import type { Env } from "../../../worker/platform/env";
import { pagespeedConfigured } from "../../../worker/platform/providers/pagespeed";
import type { ProfileRow } from "../../../worker/platform/auth/users";
import { auditAdmin, auditEnv, bindings, drain, makeProspect, readAudit, startProspectAudit } from "../audits/audit-fixtures";
import { callWorker, signUp } from "../helpers";

const SITE = () => `${env.TEST_WEBSITE_URL}/site/`;
/** Server wording a customer must never read. */
const SERVER_WORDING = /on this server|wrangler secret|\.dev\.vars|Cloud Console|[A-Z]{3,}_(API_)?(KEY|SECRET)\b/;
const tokenOf = (u: { session: { access_token: string } }) => u.session.access_token;

async function ownerWithProfile(t: ReturnType<typeof auditEnv>, profile: Record<string, unknown>) {
  const user = await signUp();
  const put = await callWorker("/api/profile", { method: "PUT", token: tokenOf(user), json: profile }, bindings(t));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return user;
}

const PLUMBER = { company_name: "Joe's Plumbing", company_location: "Austin, TX", company_phone: "(512) 555-0142", company_category: "Plumbing" };

describe("server wording never reaches customers", () => {
  it("a keyless audit says search isn't available with a stable code, names no setting, and tells the agency once a day", async () => {
    const t = auditEnv({ SERPAPI_KEY: "" });
    const admin = await auditAdmin();
    const user = await ownerWithProfile(t, { ...PLUMBER, company_website: SITE() });
    const started = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await drain(t);
    const view = (await callWorker(`/api/audits/${started.body.id}`, { token: tokenOf(user) }, bindings(t))).body as AuditView;
    expect(view.steps.find).toMatchObject({ status: "skipped", code: "search_unavailable" });
    expect(view.steps.rank).toMatchObject({ status: "skipped", code: "search_unavailable" });
    expect(JSON.stringify(view)).not.toMatch(SERVER_WORDING);
    // A second customer's keyless audit the same day: the admins still have one alert for it. Without a website it would
    // check nothing, so it is not run (issue 39).
    const other = await ownerWithProfile(t, { ...PLUMBER, company_name: "Ann's Plumbing" });
    expect((await callWorker("/api/audits", { method: "POST", token: tokenOf(other), json: { own: true } }, bindings(t))).status).toBe(503);
    const bell = await callWorker("/api/notifications", { token: tokenOf(admin) }, bindings(t));
    const told = (bell.body.notifications as { kind: string; text: string }[]).filter((n) => n.kind === "provider_missing");
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain("Google search");
  });

  it("the grid and the tracker refuse without search with search_unavailable in customers' words, storing nothing", async () => {
    const t = auditEnv({ SERPAPI_KEY: "" });
    const user = await ownerWithProfile(t, PLUMBER);
    const grid = await callWorker("/api/rank/grids", { method: "POST", token: tokenOf(user), json: { own: true, keyword: "plumber", size: 3, radiusMiles: 2 } }, bindings(t));
    expect(grid.status).toBe(503);
    expect(grid.body.error.code).toBe("search_unavailable");
    expect(grid.body.error.message).not.toMatch(SERVER_WORDING);
    const keyword = await callWorker("/api/rank/keywords", { method: "POST", token: tokenOf(user), json: { own: true, keyword: "plumber" } }, bindings(t));
    expect(keyword.status).toBe(503);
    expect(keyword.body.error.code).toBe("search_unavailable");
    expect(keyword.body.error.message).not.toMatch(SERVER_WORDING);
    const list = await callWorker("/api/rank/keywords?business=own", { token: tokenOf(user) }, bindings(t));
    expect(list.body.keywords ?? []).toHaveLength(0);
  });

  it("customers read capabilities as booleans; only admins read the Set-up checklist, which never carries a secret", async () => {
    const t = auditEnv({ SERPAPI_KEY: "" });
    const user = await signUp();
    const caps = await callWorker("/api/capabilities", { token: tokenOf(user) }, bindings(t));
    expect(caps.status).toBe(200);
    expect(caps.body).toMatchObject({ search: false, ai: expect.any(Boolean), mail: expect.any(Boolean), publishing: expect.any(Boolean) });
    expect((await callWorker("/api/admin/setup", { token: tokenOf(user) }, bindings(t))).status).toBe(403);
    expect((await callWorker("/api/admin/setup", {}, bindings(t))).status).toBe(401);
    const admin = await auditAdmin();
    const withKey = await callWorker("/api/admin/setup", { token: tokenOf(admin) }, { ...bindings(t), SERPAPI_KEY: "sk-very-secret-value" });
    expect(withKey.status).toBe(200);
    const search = (withKey.body.providers as { id: string; configured: boolean; howTo: string[]; unlocks: string }[]).find((p) => p.id === "search")!;
    expect(search).toMatchObject({ configured: true, unlocks: expect.stringContaining("Local Search Grid") });
    expect(search.howTo.join(" ")).toContain("SERPAPI_KEY");
    expect(JSON.stringify(withKey.body)).not.toContain("sk-very-secret-value");
    const without = await callWorker("/api/admin/setup", { token: tokenOf(admin) }, bindings(t));
    expect((without.body.providers as { id: string; configured: boolean }[]).find((p) => p.id === "search")!.configured).toBe(false);
  });

  it("Integrations without Google set up says so in customers' words and tells the agency", async () => {
    const t = auditEnv({ GOOGLE_OAUTH_CLIENT_ID: "", GOOGLE_OAUTH_CLIENT_SECRET: "" } as Partial<Env>);
    const user = await signUp();
    const res = await callWorker("/api/integrations", { token: tokenOf(user) }, bindings(t));
    expect(res.body.google.status).toBe("not_configured");
    const start = await callWorker("/api/integrations/google/start", { token: tokenOf(user) }, bindings(t));
    expect(start.body.error.message).not.toMatch(SERVER_WORDING);
    const admin = await auditAdmin();
    const bell = await callWorker("/api/notifications", { token: tokenOf(admin) }, bindings(t));
    expect((bell.body.notifications as { kind: string; text: string }[]).some((n) => n.kind === "provider_missing" && n.text.includes("Google Business Profile"))).toBe(true);
  });
});

describe("an audit whose inputs changed is stale", () => {
  it("runs again at once after Business Settings change; unchanged, it waits its 7 days", async () => {
    const t = auditEnv();
    const user = await ownerWithProfile(t, { ...PLUMBER, company_website: SITE() });
    const first = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(first.status).toBe(201);
    await drain(t);
    expect((await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t))).status).toBe(409);
    // The phone changes: the audit is stale, says so, and runs again now.
    await callWorker("/api/profile", { method: "PUT", token: tokenOf(user), json: { company_phone: "(512) 555-0199" } }, bindings(t));
    const shown = (await callWorker(`/api/audits/${first.body.id}`, { token: tokenOf(user) }, bindings(t))).body as AuditView;
    expect(shown).toMatchObject({ stale: true, rerunAfter: null });
    const again = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("Business Settings keeps a street address, and the audit matches the listing with it", async () => {
    const t = auditEnv();
    const user = await ownerWithProfile(t, { ...PLUMBER, company_street_address: "1200 Main St" });
    const profile = await callWorker("/api/profile", { token: tokenOf(user) }, bindings(t));
    expect(profile.body.profile.company_street_address).toBe("1200 Main St");
    const bad = await callWorker("/api/profile", { method: "PUT", token: tokenOf(user), json: { company_street_address: "x".repeat(201) } }, bindings(t));
    expect(bad.status).toBe(400);
    const subject = ownSubject({ companyName: "Joe's Plumbing", companyLocation: "Austin, TX", companyStreetAddress: "1200 Main St" } as ProfileRow);
    expect(subject).toMatchObject({ ok: true, subject: { address: "1200 Main St, Austin, TX", area: "Austin, TX" } });
  });
});

describe("the audit's progress never contradicts itself", () => {
  it("a website that could not be read makes its step failed, not done", async () => {
    const t = auditEnv();
    const prospectId = await makeProspect(t, { name: `Loop Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: `${env.TEST_WEBSITE_URL}/loop/` });
    const started = await startProspectAudit(t, prospectId);
    await drain(t);
    const view = await readAudit(t, started.id);
    expect(view.steps.fetch.status).toBe("failed");
    expect(view.steps.fetch.reason).toBeTruthy();
  });

  it("a step that waits past its deadline ends unavailable with the reason, and the audit finishes", async () => {
    const t = auditEnv();
    const prospectId = await makeProspect(t, { name: `Stuck Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: SITE() });
    const started = await startProspectAudit(t, prospectId);
    // The speed step's message is lost (as when wrangler dev restarts): it stays pending.
    await drain(t, { hold: (m) => m.step === "speed" });
    expect((await readAudit(t, started.id)).steps.speed.status).toBe("pending");
    const old = new Date(Date.now() - 13 * 60_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("UPDATE audits SET created_at = ? WHERE id = ?").bind(old, started.id),
      env.DB.prepare("UPDATE audit_steps SET claimed_at = CASE WHEN claimed_at IS NULL THEN NULL ELSE ?1 END, finished_at = CASE WHEN finished_at IS NULL THEN NULL ELSE ?1 END WHERE audit_id = ?2").bind(old, started.id),
    ]);
    const view = await readAudit(t, started.id);
    expect(view.steps.speed).toMatchObject({ status: "failed", code: "step_timed_out", reason: TIMED_OUT_REASON });
    expect(view.status).toBe("done");
    expect(view.score.overall).not.toBeNull();
  });
});

describe("an audit that could check nothing is not run, and does not lock the tool (issue 39)", () => {
  it("without search and without a website, refuses with search_unavailable in the customer's words and stores nothing", async () => {
    const t = auditEnv({ SERPAPI_KEY: "" });
    const user = await ownerWithProfile(t, PLUMBER);
    const res = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("search_unavailable");
    expect(res.body.error.message).toBe(
      "Google search isn't available yet, and without a website there is nothing else the audit can check. Add your website in Business Settings to have it checked now. Your agency has been told.",
    );
    expect(res.body.error.message).not.toMatch(SERVER_WORDING);
    expect(t.sent).toEqual([]);
    expect((await callWorker("/api/audits?own=1", { token: tokenOf(user) }, bindings(t))).body.audits).toEqual([]);
  });

  it("a finished audit that checked nothing may run again at once; one that checked something waits its 7 days", async () => {
    // Search off, page speed off (no key locally), and a website that does not exist: nothing can be checked.
    const t = auditEnv({ SERPAPI_KEY: "", PAGESPEED_BASE_URL: "", PAGESPEED_API_KEY: "" } as Partial<Env>);
    const user = await ownerWithProfile(t, { ...PLUMBER, company_website: "https://no-such-site.example" });
    const first = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await drain(t);
    const hollow = (await callWorker(`/api/audits/${first.body.id}`, { token: tokenOf(user) }, bindings(t))).body as AuditView;
    expect(hollow.status).toBe("done");
    expect(hollow.score.overall).toBeNull();
    expect(hollow.rerunAfter).toBeNull();
    const again = await callWorker("/api/audits", { method: "POST", token: tokenOf(user), json: { own: true } }, bindings(t));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    // The same with a website that reads: its checks count, and the tool waits.
    const reader = await ownerWithProfile(t, { ...PLUMBER, company_name: "Reader Plumbing", company_website: SITE() });
    const made = await callWorker("/api/audits", { method: "POST", token: tokenOf(reader), json: { own: true } }, bindings(t));
    await drain(t);
    const checked = (await callWorker(`/api/audits/${made.body.id}`, { token: tokenOf(reader) }, bindings(t))).body as AuditView;
    expect(checked.score.overall).not.toBeNull();
    expect(checked.rerunAfter).not.toBeNull();
    expect((await callWorker("/api/audits", { method: "POST", token: tokenOf(reader), json: { own: true } }, bindings(t))).status).toBe(409);
  });
});

describe("locally, a provider without a key or a base URL is not called", () => {
  it("page speed is gated in development only", () => {
    const dev = { ...env, ENVIRONMENT: "development" } as Env;
    expect(pagespeedConfigured({ ...dev, PAGESPEED_API_KEY: "", PAGESPEED_BASE_URL: "" })).toBe(false);
    expect(pagespeedConfigured({ ...dev, PAGESPEED_API_KEY: "k", PAGESPEED_BASE_URL: "" })).toBe(true);
    expect(pagespeedConfigured({ ...dev, PAGESPEED_API_KEY: "", PAGESPEED_BASE_URL: "http://127.0.0.1:9" })).toBe(true);
    expect(pagespeedConfigured({ ...dev, ENVIRONMENT: "production", PAGESPEED_API_KEY: "", PAGESPEED_BASE_URL: "" })).toBe(true);
  });
});

describe("locally, the website is read as in production, through the fetch guard (issue 39)", () => {
  const dnsAsked = async (name: string) =>
    ((await (await fetch(`${env.TEST_DNS_URL}/__requests`)).json()) as { requests: { name: string }[] }).requests.filter((r) => r.name === name);

  it("a website on a host name is looked up and fetched, not skipped; a name that resolves to a private address is refused", async () => {
    const t = auditEnv({ ENVIRONMENT: "development" } as Partial<Env>);
    // The fake resolver calls this name public; the tests' network reaches loopback only, so the fetch itself fails.
    const named = await makeProspect(t, { name: `Named Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: "http://www.joes-plumbing.example/" });
    const privateSite = await makeProspect(t, { name: `Rebind Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: "http://private.rebind.example/" });
    const [a, b] = [await startProspectAudit(t, named), await startProspectAudit(t, privateSite)];
    await drain(t);
    const [viewA, viewB] = [await readAudit(t, a.id), await readAudit(t, b.id)];
    // What the step says for the public name (the connection refused by the tests' loopback-only network):
    expect(viewA.steps.fetch.reason).toBe("the site could not be reached (http://www.joes-plumbing.example/)");
    for (const view of [viewA, viewB]) {
      expect(view.steps.fetch.status).toBe("failed");
      expect(view.steps.fetch.reason).not.toMatch(/local copy/);
    }
    expect((await dnsAsked("www.joes-plumbing.example")).length).toBeGreaterThan(0);
    expect(viewB.steps.fetch.reason).toContain("private.rebind.example resolves to 10.0.0.7, which is a private network address");
  });

  it("a loopback site is read and its checks are made", async () => {
    const t = auditEnv({ ENVIRONMENT: "development" } as Partial<Env>);
    const prospectId = await makeProspect(t, { name: `Local Plumbing ${crypto.randomUUID().slice(0, 6)}`, website: SITE() });
    const started = await startProspectAudit(t, prospectId);
    await drain(t);
    const view = await readAudit(t, started.id);
    expect(view.steps.fetch.status).toBe("done");
    expect(view.site?.title).toBeTruthy();
  });
});

describe("the search tools start from the business's own trade and city", () => {
  it("uses the profile's trade and location, the spec's defaults without them", () => {
    expect(searchStart({ company_category: "Plumbing", company_location: "Austin, TX" })).toMatchObject({
      keyword: "Plumbing",
      businessType: "Plumbing",
      location: "Austin, TX",
      tryLabel: "Try Plumbing",
    });
    expect(searchStart(null)).toMatchObject({ businessType: "Coffee", location: "New York, NY, United States", tryLabel: "Try Restaurant" });
    expect(searchStart({ company_category: "Other", company_location: "" })).toMatchObject({ tryLabel: "Try Restaurant" });
  });
});
