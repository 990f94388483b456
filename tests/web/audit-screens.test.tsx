// The screens around an audit with a stubbed API: the admin report's "What we found" polled while it runs, started
// when there is none, the listing picked; the shared page (server-rendered, no candidates); the meta tags side by
// side; and the Local Search Audit tool (missing business details, first run, history, re-run date).
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReportAudit } from "../../web/features/audits/report-audit";
import { MetaSection } from "../../web/features/reports/report-sections";
import { SharedReportView } from "../../web/features/reports/shared-report-view";
import type { AuditSummary, AuditView } from "../../worker/features/audits/rules/view";
import { NewReportInput, prospectFromForm } from "../../worker/features/reports/rules/new-report";
import { contentFromStored, withAuditPotential, type SharedReportResponse } from "../../worker/features/reports/rules/view";
import { scoreAudit } from "../../worker/features/audits/rules/score";
import { AUDIT_RUNNING_REFRESH_SECONDS, renderSharedReportPage } from "../../worker/features/reports/shared-report-page";
import "../../worker/ssr";
import { auditFixture } from "./audit-fixtures";
import { json, notFound, renderApp, renderAt, signedIn, stubFetch } from "./helpers";

afterEach(() => vi.useRealTimers());

const summary = (a: AuditView): AuditSummary => ({
  id: a.id,
  subject: { kind: a.subject.kind, prospectId: a.subject.prospectId, name: a.subject.name },
  status: a.status,
  createdAt: a.createdAt,
  overall: a.score.overall,
});

const posts = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls
    .filter(([, init]) => init?.method === "POST")
    .map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init!.body)), type: new Headers(init!.headers).get("Content-Type") }));

describe("the admin report's What we found", () => {
  it("polls a running audit until it is done, then stops", async () => {
    // The clock is the fixture's next day, so the 7-day re-run date is still ahead whatever day the test runs.
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date("2026-11-21T12:00:00.000Z") });
    const running = auditFixture("running", { id: "a-1" });
    const done = auditFixture("done", { id: "a-1" });
    const answers = [running, running, done];
    const fetch = stubFetch((url) => {
      if (url === "/api/audits?prospectId=p1") return json({ audits: [summary(running)] });
      if (url === "/api/audits/a-1") return json(answers.shift() ?? done);
      return notFound();
    });
    renderAt("/admin/reports/r-1", signedIn({ admin: true }), <ReportAudit prospectId="p1" />);
    expect(await screen.findByRole("heading", { name: "What we found" })).toBeTruthy();
    expect(await screen.findByRole("list", { name: "Audit progress" })).toBeTruthy();
    expect(screen.getAllByText("Measuring…").length).toBeGreaterThan(0);
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    await waitFor(() => expect(screen.queryByRole("list", { name: "Audit progress" })).toBeNull());
    expect(screen.queryByText("Measuring…")).toBeNull();
    const calls = () => fetch.mock.calls.filter(([u]) => u === "/api/audits/a-1").length;
    const settled = calls();
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(calls()).toBe(settled);
    // Done, and not yet 7 days old: when it can run again, instead of the button.
    expect(screen.getByText(/it can run again on November 27, 2026/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Run the audit again/ })).toBeNull();
  });

  it("offers to audit a prospect that has none, and starts one with a JSON body", async () => {
    const started = auditFixture("running", { id: "a-new" });
    let audits: AuditSummary[] = [];
    const fetch = stubFetch((url, init) => {
      if (url === "/api/audits" && init.method === "POST") {
        audits = [summary(started)];
        return json(started, 202);
      }
      if (url === "/api/audits?prospectId=p1") return json({ audits });
      if (url === "/api/audits/a-new") return json(started);
      return notFound();
    });
    renderAt("/admin/reports/r-1", signedIn({ admin: true }), <ReportAudit prospectId="p1" />);
    expect(await screen.findByText(/has not been audited yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Audit this business" }));
    expect(await screen.findByRole("list", { name: "Audit progress" })).toBeTruthy();
    expect(posts(fetch)).toEqual([{ url: "/api/audits", body: { prospectId: "p1" }, type: "application/json" }]);
  });

  it("lets the admin pick the listing when Google Maps matched none for sure", async () => {
    const notFoundAudit = auditFixture("not-found", { id: "a-2" });
    const picked = auditFixture("done", { id: "a-2" });
    let current = notFoundAudit;
    const fetch = stubFetch((url, init) => {
      if (url === "/api/audits/a-2/listing" && init.method === "POST") {
        current = picked;
        return json(picked);
      }
      if (url === "/api/audits?prospectId=p1") return json({ audits: [summary(current)] });
      if (url === "/api/audits/a-2") return json(current);
      return notFound();
    });
    renderAt("/admin/reports/r-1", signedIn({ admin: true }), <ReportAudit prospectId="p1" />);
    fireEvent.click(await screen.findByRole("radio", { name: /Ridge Roofing & Gutters/ }));
    fireEvent.click(screen.getByRole("button", { name: "Use this listing" }));
    expect(await screen.findByText("On Google Maps")).toBeTruthy();
    expect(screen.queryByRole("radio")).toBeNull();
    expect(posts(fetch)).toEqual([{ url: "/api/audits/a-2/listing", body: { placeId: "cand-1" }, type: "application/json" }]);
  });

  it("says so, with a way to try again, when the audit cannot be loaded", async () => {
    stubFetch(() => json({ error: { code: "internal_error", message: "boom" } }, 500));
    renderAt("/admin/reports/r-1", signedIn({ admin: true }), <ReportAudit prospectId="p1" />);
    expect(await screen.findByText("Could not load what the audit found. Please try again.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});

function shared(audit: AuditView | null, ready = true): SharedReportResponse {
  const prospect = { name: "Ridge Roofing", company_name: "", area: "Austin, TX", keyword: "roof repair", tag: "Roofing", description: "Roofers." };
  const stored = { contentGenerated: true, gmbArticles: "[]", blogStructures: "[]", facebookPosts: "[]", metaSeo: null, perfectAd: null, seoPotential: 60 };
  return {
    report: {
      id: "r-1",
      status: ready ? "ready" : "generating",
      source: "ai",
      created_at: "2026-11-20T10:00:00.000Z",
      generated_at: ready ? "2026-11-20T10:02:00.000Z" : null,
      version: 1,
      content: ready ? contentFromStored(stored, prospect) : null,
    },
    prospect,
    sender: null,
    audit,
  };
}

describe("the shared page", () => {
  it("renders What we found on the server, and never the candidates an admin picks from", () => {
    const html = renderToStaticMarkup(<SharedReportView data={shared(auditFixture("not-found"))} />);
    expect(html).toContain("What we found");
    expect(html).toContain("Score by section");
    expect(html).not.toContain("Ridge Roofing &amp; Gutters");
    expect(html).not.toContain('type="radio"');
    expect(html).not.toContain("Google Maps link");
  });

  it("one SEO potential figure, from the audit; without data, says so once (issue 39)", () => {
    const base = auditFixture("done");
    const reason = "the site could not be reached (https://ridge.example/)";
    const checks = base.checks.map((c) => ({ ...c, verdict: "unknown" as const, reason, evidence: `We could not check this: ${reason}.` }));
    const empty: AuditView = { ...base, checks, score: scoreAudit(checks), fixFirst: [] };
    const data = shared(empty);
    data.report.content = withAuditPotential(data.report.content, empty);
    const html = renderToStaticMarkup(<SharedReportView data={data} />);
    expect(html).not.toContain("SEO Potential Analysis");
    expect(html).not.toMatch(/ranking potential/i);
    expect(html.match(/No data/g)).toHaveLength(1);
    expect(html.split(reason).length - 1).toBe(1);
    // With data, the figure at the top is the audit's.
    const full = shared(base);
    full.report.content = withAuditPotential(full.report.content, base);
    const withData = renderToStaticMarkup(<SharedReportView data={full} />);
    expect(withData).toContain(`<span class="overview-value">${base.score.overall}%</span>`);
  });

  it("shows what a hostile website wrote (its title, a competitor's name) as text, never as markup", () => {
    const payload = '<img src=x onerror="alert(1)">';
    const base = auditFixture("done");
    const audit = {
      ...base,
      site: { ...base.site!, title: payload },
      competitors: [{ name: payload, rating: 4.5, reviewCount: 3 }],
      checks: base.checks.map((c) => (c.id === "title" ? { ...c, evidence: `Your page title is 28 characters ("${payload}").` } : c)),
    };
    const html = renderToStaticMarkup(<SharedReportView data={shared(audit)} />);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("shows the findings while the report is still being prepared", () => {
    const html = renderToStaticMarkup(<SharedReportView data={shared(auditFixture("running"), false)} />);
    expect(html).toContain("Your report is being prepared");
    expect(html).toContain("What we found");
    expect(html).toContain("Measuring…");
  });

  it("refreshes a ready report's page while its audit runs, and stops once it is done", () => {
    const opts = { pageUrl: "https://app.test/shared/reports/r-1", imageUrl: "https://app.test/card.png", assets: [] };
    expect(renderSharedReportPage(shared(auditFixture("running")), opts)).toContain(`<meta http-equiv="refresh" content="${AUDIT_RUNNING_REFRESH_SECONDS}">`);
    expect(renderSharedReportPage(shared(auditFixture("done")), opts)).not.toContain('http-equiv="refresh"');
    expect(renderSharedReportPage(shared(null), opts)).not.toContain('http-equiv="refresh"');
  });

  it("puts the site's current meta tags beside the suggested ones", () => {
    const data = shared(auditFixture("done"));
    const html = renderToStaticMarkup(<SharedReportView data={data} />);
    expect(html).toContain("On the site now");
    expect(html).toContain("Ridge Roofing | Roof Repair and Replacement in Austin, Texas since 1998");
    expect(html).toContain("None: Google picks a snippet of the page");
    // Without an audit the section is as before.
    const plain = renderToStaticMarkup(<MetaSection meta={data.report.content!.metaSEO} />);
    expect(plain).not.toContain("On the site now");
  });
});

describe("Local Search Audit", () => {
  const withBusiness = (over: Record<string, string | null> = {}) => {
    const auth = signedIn();
    auth.profile = { ...auth.profile!, company_name: "Ridge Roofing", company_location: "Austin, TX", company_website: "https://ridgeroofing.test/", ...over };
    return auth;
  };

  it("says what Business Settings is missing, and links there, instead of running", async () => {
    const fetch = stubFetch(() => notFound());
    renderApp("/tools/local-search-audit", withBusiness({ company_location: null }));
    expect(await screen.findByRole("heading", { level: 1, name: "Local Search Audit" })).toBeTruthy();
    expect(screen.getByText(/Add your location in/)).toBeTruthy();
    expect(within(screen.getByRole("main")).getByRole("link", { name: "Business Settings" }).getAttribute("href")).toBe("/settings/personal");
    expect(fetch.mock.calls.some(([u]) => String(u).startsWith("/api/audits"))).toBe(false);
  });

  it("runs the first audit of the user's own business, then shows it with its history", async () => {
    const first = auditFixture("done", { id: "own-1", subject: { ...auditFixture().subject, kind: "own", prospectId: null }, rerunAfter: null, previous: null, createdAt: "2026-11-10T10:00:00.000Z" });
    const second = auditFixture("running", { id: "own-2", subject: first.subject });
    let audits: AuditSummary[] = [];
    const fetch = stubFetch((url, init) => {
      if (url === "/api/audits" && init.method === "POST") {
        audits = audits.length ? [summary(second), summary(first)] : [summary(first)];
        return json(audits.length > 1 ? second : first, 202);
      }
      if (url === "/api/audits?own=1") return json({ audits });
      if (url === "/api/audits/own-1") return json(first);
      if (url === "/api/audits/own-2") return json(second);
      return notFound();
    });
    renderApp("/tools/local-search-audit", withBusiness());
    fireEvent.click(await screen.findByRole("button", { name: "Run the audit" }));
    expect(await screen.findByRole("list", { name: "Score by section" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Print" })).toBeTruthy();
    // Older than 7 days (rerunAfter null): it may run again.
    fireEvent.click(screen.getByRole("button", { name: "Run again" }));
    expect(await screen.findByRole("list", { name: "Audit progress" })).toBeTruthy();
    const history = await screen.findByRole("region", { name: "Past audits" });
    const rows = within(history).getAllByRole("row").slice(1) as HTMLTableRowElement[];
    expect(rows.map((r) => r.cells[1]!.textContent)).toEqual(["Running…", `${first.score.overall}/100`]);
    fireEvent.click(within(history).getByRole("button", { name: "Open" }));
    await waitFor(() => expect(screen.queryByRole("list", { name: "Audit progress" })).toBeNull());
    expect(posts(fetch).map((p) => p.body)).toEqual([{ own: true }, { own: true }]);
  });
});

describe("Create New Report's Website", () => {
  it("is optional, refuses what is not a website with its own message, and is sent as typed", async () => {
    const posted: Record<string, unknown>[] = [];
    stubFetch((url, init) => {
      if (url === "/api/reports" && init.method === "POST") {
        posted.push(JSON.parse(String(init.body)));
        return json({ error: { code: "unavailable", message: "later" } }, 503);
      }
      return notFound();
    });
    renderApp("/admin/new-report", signedIn({ admin: true }));
    await screen.findByRole("heading", { name: "Create New Report" });
    fireEvent.change(screen.getByLabelText(/Business Name/), { target: { value: "Ridge Roofing" } });
    fireEvent.change(screen.getByLabelText(/Business Location/), { target: { value: "Austin, TX" } });
    fireEvent.change(screen.getByLabelText(/Target Keyword/), { target: { value: "roof repair" } });
    const website = screen.getByLabelText("Website");
    fireEvent.change(website, { target: { value: "not a site" } });
    fireEvent.click(screen.getByRole("button", { name: "Create & Generate Content" }));
    expect((await screen.findAllByText("Enter a valid website address, like example.com")).length).toBeGreaterThan(0);
    expect(website.getAttribute("aria-invalid")).toBe("true");
    expect(posted).toEqual([]);
    fireEvent.change(website, { target: { value: "ridgeroofing.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Create & Generate Content" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.website).toBe("ridgeroofing.com");
  });

  it("is read by the shared schema: a bare domain gets https://, blank stays blank", () => {
    const base = { name: "A", area: "Austin, TX", keyword: "roof repair" };
    expect(NewReportInput.parse({ ...base, website: "ridgeroofing.com" }).website).toBe("https://ridgeroofing.com");
    expect(NewReportInput.parse(base).website).toBeNull();
    expect(NewReportInput.safeParse({ ...base, website: "javascript:alert(1)" }).success).toBe(false);
    expect(prospectFromForm(NewReportInput.parse(base)).prospect.website).toBeNull();
  });
});

describe("GBP Audit for an admin", () => {
  it("audits a prospect picked from the list, showing only the listing, reputation and competitors", async () => {
    const audit = auditFixture("done", { id: "p-audit" });
    const prospect = { id: "p1", name: "Ridge Roofing", description: "", area: "Austin, TX", keyword: "roof repair", phone: "", email: "", tag: null, company_name: "", user_id: null, created_at: "2026-11-01T00:00:00Z", report: null };
    stubFetch((url) => {
      if (url.startsWith("/api/prospects")) return json({ prospects: [prospect], total: 1, all: 1, nextCursor: null });
      if (url === "/api/audits?prospectId=p1") return json({ audits: [summary(audit)] });
      if (url === "/api/audits/p-audit") return json(audit);
      if (url === "/api/audits?own=1") return json({ audits: [] });
      return notFound();
    });
    const auth = signedIn({ admin: true });
    auth.profile = { ...auth.profile!, company_name: "Agency", company_location: "Austin, TX" };
    renderApp("/tools/gbp-audit", auth);
    expect(await screen.findByRole("heading", { level: 1, name: "GBP Audit" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "A prospect" }));
    fireEvent.click(await screen.findByRole("button", { name: /Ridge Roofing/ }));
    const scores = await screen.findByRole("list", { name: "Score by section" });
    expect(within(scores).getAllByRole("listitem").map((li) => li.querySelector(".audit-section-name")!.textContent)).toEqual([
      "Google Business Profile",
      "Reputation",
      "Competitors",
    ]);
    expect(screen.getByText("Profile score")).toBeTruthy();
    expect(screen.queryByText("Page title")).toBeNull();
  });
});
