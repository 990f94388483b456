// The Citation Tracker's screen (issue 27): the cost before a scan, the sources table with differences marked and the
// fix links, the problems filter, the fix list, the history's changes, and the empty and error states.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { CITATION_SOURCES, sourceById } from "../../worker/features/citations/rules/sources";
import { judgeSource, manualResult, type CitationScanView, type ExpectedBusiness, type ListingFields } from "../../worker/features/citations/rules/citations";
import { fixList, reportListingsOf, summarize } from "../../worker/features/citations/rules/summary";
import type { AdminReportResponse, SharedReportResponse } from "../../worker/features/reports/rules/view";
import { sharedRoofer } from "./shared-report-fixtures";
import { SharedReportView } from "../../web/features/reports/shared-report-view";
import { ProspectCard } from "../../web/features/prospects/prospect-card";
import { AdminReportView } from "../../web/features/reports/pages/admin-report";
import { createQueryClient } from "../../web/lib/query-client";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const EXPECTED: ExpectedBusiness = { name: "Ridge Roofing", street: "1200 Main St", city: "Austin", region: "TX", zip: "78701", phone: "5125550142", website: null, knownPhones: [], knownHosts: [] };
const listing = (over: Partial<ListingFields>): ListingFields => ({ name: "Ridge Roofing", street: "1200 Main St", city: "Austin", region: "TX", zip: "78701", phones: ["5125550142"], website: null, trackingMarked: false, ...over });
const at = "2026-11-20T15:00:00.000Z";

function scanFixture(): CitationScanView {
  const judged = (id: string, fields: Partial<ListingFields> | null) =>
    judgeSource(sourceById(id)!, EXPECTED, [], { searches: 2, searchFailed: null, checkedAt: at, candidates: fields ? [{ url: `https://www.${sourceById(id)!.domain}/ridge`, title: "", snippet: "", page: { ok: true, fields: listing(fields) } }] : [] });
  const sources = CITATION_SOURCES.map((s) => (s.lookup === "manual" ? manualResult(s) : s.id === "yelp" ? judged("yelp", { phones: ["5125550100"] }) : s.id === "bbb" ? judged("bbb", {}) : judged(s.id, null)));
  return {
    id: "scan-1",
    status: "done",
    business: { kind: "own", prospectId: null, name: "Ridge Roofing" },
    expected: EXPECTED,
    competitors: [],
    createdAt: at,
    finishedAt: at,
    trigger: "manual",
    estimate: { searches: 50, costUsd: 0.75 },
    sources,
    summary: summarize(sources),
    fixes: fixList(sources),
    changes: ["Yelp now shows your new phone number."],
    previous: null,
  };
}

function owner() {
  const auth = signedIn();
  auth.profile = { ...auth.profile!, company_name: "Ridge Roofing", company_location: "1200 Main St, Austin, TX 78701" };
  return auth;
}
const estimate = { searches: 50, costUsd: 0.75, allowanceLeftUsd: 0.91, allowed: true };

/** The tool's answers with one scan of the user's own business: `scan` itself, and its row in the list. */
function stubScan(scan: CitationScanView, changes: string[] = []) {
  stubFetch((url) => {
    if (url.startsWith("/api/citations/scans?estimate=1")) return json(estimate);
    if (url === "/api/citations/scans?business=own") return json({ scans: [{ id: scan.id, status: scan.status, createdAt: at, finishedAt: scan.finishedAt, trigger: "manual", summary: scan.summary, changes }] });
    if (url === "/api/citations/scans/scan-1") return json(scan);
    return json({});
  });
}

describe("Citation Tracker", () => {
  it("shows the cost, the figures, the fix list first, and the sources with differences marked and their fix links", async () => {
    const scan = scanFixture();
    stubScan(scan, scan.changes);
    renderApp("/tools/citation-tracker", owner());
    expect(await screen.findByText("50 web searches · about $0.75 · $0.91 left of this month's allowance")).toBeTruthy();
    expect(await screen.findByText("of 26 sources list you")).toBeTruthy();
    expect(screen.getByText("of 26 sources list you").previousElementSibling!.textContent).toBe("2");
    const fixes = screen.getByRole("heading", { name: "What to fix first" }).closest("section")!;
    expect(within(fixes).getAllByRole("listitem")[0]!.textContent).toContain('On Yelp, change the phone from "(512) 555-0100" to "(512) 555-0142".');
    const table = screen.getByRole("table");
    const yelp = within(table).getByText("Yelp").closest("tr")!;
    expect(within(yelp).getByText("Inconsistent")).toBeTruthy();
    expect(within(yelp).getByText("Should be: (512) 555-0142")).toBeTruthy();
    expect(within(yelp).getByRole("link", { name: /Claim or correct/ }).getAttribute("href")).toBe("https://biz.yelp.com/");
    expect(within(table).getByText("Apple Business Connect").closest("tr")!.textContent).toContain("Check yourself");
    // Four columns (issue 27's layout at 1280 px): a listing's fields fold into one cell, what differs first.
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Source", "Verdict", "What the listing says", "Fix"]);
    expect(within(yelp).getByText("Phone: (512) 555-0100")).toBeTruthy();
    expect(within(yelp).getByText(/^Matches: Name, Street address, City and ZIP$/)).toBeTruthy();
    const bbb = within(table).getByText("BBB").closest("tr")!;
    expect(within(bbb).getByText(/^Matches: Name, Street address, City and ZIP, Phone$/)).toBeTruthy();
    expect(within(bbb).getByRole("link", { name: /View listing/ }).getAttribute("href")).toBe("https://www.bbb.org/ridge");
    expect(screen.getAllByText("Yelp now shows your new phone number.").length).toBeGreaterThan(0);
    expect(within(screen.getByRole("region", { name: "History" })).getByText("Shown")).toBeTruthy();
    // Problems only: Yelp, and nothing that agrees.
    fireEvent.click(screen.getByRole("button", { name: "Problems only" }));
    expect(within(screen.getByRole("table")).queryByText("BBB")).toBeNull();
    expect(within(screen.getByRole("table")).getByText("Yelp")).toBeTruthy();
  });

  it("says which source the expected details came from: Business Settings, and the Google listing for what they lack (issue 39)", async () => {
    const scan = { ...scanFixture(), expected: { ...EXPECTED, from: { street: "google", city_zip: "own", phone: "own" }, googleAt: at } } satisfies CitationScanView;
    stubScan(scan);
    renderApp("/tools/citation-tracker", owner());
    expect(
      await screen.findByText(
        "Compared with your Business Settings (name, city and ZIP, phone) and your Google listing as the Local Search Audit of 2026-11-20 found it (street address). Not known, so not compared: website.",
      ),
    ).toBeTruthy();
  });

  it("says while a scan runs how many sources answered, and offers the CSV only once it is done", async () => {
    const scan = scanFixture();
    const running: CitationScanView = { ...scan, status: "running", finishedAt: null, sources: scan.sources.map((r) => (r.source === "bbb" ? { ...r, state: "pending" as const, verdict: "unknown" as const } : r)) };
    stubScan(running);
    renderApp("/tools/citation-tracker", owner());
    const looked = scan.sources.filter((r) => r.lookup !== "manual").length;
    expect(await screen.findByText(`Looking up sources: ${looked - 1} of ${looked} answered`)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Export CSV" })).toBeNull();
    // One scan at a time: another waits until this one is done.
    expect((screen.getByRole("button", { name: "Scan listings" }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(within(screen.getByRole("table")).getByText("BBB").closest("tr")!).getByText("Checking…")).toBeTruthy();
  });

  it("without search, says so in the customer's words and keeps Scan listings disabled", async () => {
    stubFetch((url) => {
      if (url === "/api/capabilities") return json({ search: false, pagespeed: true, ai: true, mail: false, publishing: false });
      if (url.startsWith("/api/citations/scans?estimate=1")) return json(estimate);
      if (url === "/api/citations/scans?business=own") return json({ scans: [] });
      return json({});
    });
    renderApp("/tools/citation-tracker", owner());
    expect(await screen.findByText("Search isn't available yet")).toBeTruthy();
    expect(await screen.findByText(/web searches · about/)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Scan listings" }) as HTMLButtonElement).disabled).toBe(true);
    expect(document.body.textContent).not.toMatch(/SERPAPI|on this server/);
  });

  it("says when there is no scan yet, and when the scans could not be loaded", async () => {
    stubFetch((url) => {
      if (url.startsWith("/api/citations/scans?estimate=1")) return json(estimate);
      if (url === "/api/citations/scans?business=own") return json({ scans: [] });
      return json({});
    });
    const first = renderApp("/tools/citation-tracker", owner());
    expect(await screen.findByText("No scans yet")).toBeTruthy();
    first.unmount();
    stubFetch((url) => (url === "/api/citations/scans?business=own" ? json({ error: { code: "unavailable", message: "down" } }, 503) : json(estimate)));
    renderApp("/tools/citation-tracker", owner());
    expect(await screen.findByText("Could not load the scans.")).toBeTruthy();
  });
});

describe("the report's Listings (issue 27)", () => {
  const listings = reportListingsOf(at, scanFixture().sources);
  const shared = (over: Partial<SharedReportResponse> = {}) => sharedRoofer(at, "Ridge Roofing", "Austin, TX", over);

  it("shows the scan's sentence and the wrong sources on the shared page, and no phone number", () => {
    expect(listings.sentence).toBe("Found on 2 of 26 sources; 1 shows an old phone number.");
    const html = renderToStaticMarkup(<SharedReportView data={shared({ listings })} />);
    const section = /<section[^>]*id="listings"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(section).toContain("Listings");
    expect(section).toContain("Found on 2 of 26 sources; 1 shows an old phone number.");
    expect(section).toContain("Yelp: out of date (phone)");
    expect(section).not.toMatch(/555|\d{10}/);
    // No link into the app on the public page; no section before the first scan.
    expect(section).not.toContain("/tools/citation-tracker");
    expect(renderToStaticMarkup(<SharedReportView data={shared({ listings: null })} />)).not.toContain('id="listings"');
  });

  it("links the admin's report and the prospect card to the tracker with the prospect chosen", () => {
    const data = {
      report: { id: "r-1", status: "queued", source: null, attempts: 0, max_attempts: 5, last_error: null, content_generated: false, created_at: at, generated_at: null, version: 1, questions: [], content: null },
      prospect: { id: "p-9", name: "Ridge Roofing", company_name: "", phone: "15125550142", email: "", description: "", area: "Austin, TX", keyword: "roofer", tag: null, created_at: at, website: null },
      listings,
      ai_configured: true,
      share_url: "http://localhost/shared/reports/r-1",
    } satisfies AdminReportResponse;
    const view = render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <AdminReportView data={data} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const section = screen.getByRole("region", { name: "Listings" });
    expect(within(section).getByRole("link", { name: "Open in Citation Tracker" }).getAttribute("href")).toBe("/tools/citation-tracker?prospect=p-9&name=Ridge+Roofing");
    view.unmount();
    render(
      <MemoryRouter>
        <ProspectCard prospect={{ ...data.prospect, user_id: null, report: null }} saving={false} readOnly={false} onTagChange={() => undefined} onDelete={() => undefined} />
      </MemoryRouter>,
    );
    expect(screen.getByRole("link", { name: /Listings/ }).getAttribute("href")).toBe("/tools/citation-tracker?prospect=p-9&name=Ridge+Roofing");
  });

  it("opens on the prospect the address names, for an admin", async () => {
    const asked: string[] = [];
    stubFetch((url) => {
      asked.push(url);
      if (url.startsWith("/api/citations/scans?estimate=1")) return json(estimate);
      if (url === "/api/citations/scans?business=p-9") return json({ scans: [] });
      if (url.startsWith("/api/prospects")) return json({ prospects: [], total: 0, all: 0, nextCursor: null });
      if (url.startsWith("/api/reports")) return json({ reports: [], nextCursor: null });
      return json({});
    });
    renderApp("/tools/citation-tracker?prospect=p-9&name=Ridge%20Roofing", signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { name: "New scan for Ridge Roofing" })).toBeTruthy();
    expect(await screen.findByText("No scans yet")).toBeTruthy();
    expect(asked).toContain("/api/citations/scans?business=p-9");
  });
});
