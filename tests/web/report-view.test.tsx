// Report screens with stubbed data: every section of the admin view, the potential label rules, copy notices,
// the shared page (public, sections, not found) and Create New Report (required fields, generating, navigation).
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { createQueryClient } from "../../web/lib/query-client";
import { ProspectCard } from "../../web/features/prospects/prospect-card";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminReportResponse, ReportViewContent, SharedReportResponse } from "../../worker/features/reports/rules/view";
import { potentialFromScore } from "../../worker/features/reports/rules/seo-potential";
import { AdminReportView } from "../../web/features/reports/pages/admin-report";
import { REPORT_SECTION_HEADINGS } from "../fakes/report-data";
import { json, notFound, renderApp, signedIn, stubFetch } from "./helpers";
import { AI_NOT_CONFIGURED_REASON } from "../../worker/features/reports/rules/format";

const HOSTILE = '<img src=x onerror="alert(1)">';

function content(overrides: Partial<ReportViewContent> = {}): ReportViewContent {
  return {
    metaSEO: {
      title: "Roof Repair Austin | Summit Peak",
      description: "Trusted roof repair in Austin, TX. Call today.",
      url: "https://www.summitpeak.com",
      improvements: ["Leads with the keyword"],
    },
    perfectAd: {
      title: `Summit Peak Roofing ${HOSTILE}`,
      description: "Fast, friendly roof repair.",
      displayUrl: "www.summit peak roofing.com",
      targetUrl: "https://www.summitpeak.com",
      improvements: ["Mentions the city"],
    },
    gmbArticles: [{ title: "Storm season tips", subtitle: "What to check after hail", targetKeywords: ["roof repair", "hail damage", "austin roofer"] }],
    blogStructures: [
      {
        title: "The complete guide to roof repair",
        sections: ["One", "Two", "Three", "Four", "Five"],
        targetKeywords: ["roof repair austin", "b", "c", "d", "e"],
      },
    ],
    facebookPosts: [
      {
        title: "Spot roof problems early",
        content: "Missing shingles? Call us.",
        author: "Summit Peak Roofing",
        image: "https://placehold.co/600x400?text=roof%20repair",
        likes: 31,
        comments: 9,
        shares: 3,
      },
    ],
    seoPotential: potentialFromScore(72),
    ...overrides,
  };
}

function adminData(over: { content?: ReportViewContent | null; source?: "ai" | "template"; status?: AdminReportResponse["report"]["status"]; last_error?: string | null; attempts?: number; ai_configured?: boolean } = {}): AdminReportResponse {
  return {
    report: {
      id: "r-1",
      status: over.status ?? "ready",
      source: over.source ?? "ai",
      attempts: over.attempts ?? 1,
      max_attempts: 5,
      last_error: over.last_error ?? null,
      content_generated: true,
      created_at: "2026-11-21T10:00:00.000Z",
      generated_at: "2026-11-21T10:01:00.000Z",
      version: 2,
      questions: [],
      content: over.content === undefined ? content() : over.content,
    },
    prospect: {
      id: "p-1",
      name: "Summit Peak Roofing",
      company_name: "Summit Peak LLC",
      phone: "15125550142",
      email: "",
      description: "Family-owned roofers.",
      area: "Austin, TX",
      keyword: "roofer in austin",
      tag: "Roofing",
      created_at: "2026-11-21T10:00:00.000Z",
      website: null,
    },
    ai_configured: over.ai_configured ?? true,
    share_url: "http://localhost:3000/shared/reports/r-1",
  };
}

function renderAdmin(data: AdminReportResponse) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <AdminReportView data={data} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const NO_VIEWS = { stats: { opens: 0, first_opened_at: null, last_opened_at: null, visits: 0, chat_started: 0, prints: 0 }, sections: [], events: [] };

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  // happy-dom's own sendBeacon would post to a real server; the shared page's beacons are recorded instead.
  Object.defineProperty(navigator, "sendBeacon", { value: vi.fn(() => true), configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("admin report view", () => {
  it("leaves out the brackets when the company is the business's own name, on the report and the generating screen", () => {
    const same = (status: AdminReportResponse["report"]["status"]) => {
      const data = adminData({ status, content: status === "ready" ? undefined : null });
      return { ...data, prospect: { ...data.prospect, company_name: " summit peak roofing " } };
    };
    const { unmount } = renderAdmin(same("ready"));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Report for Summit Peak Roofing");
    unmount();
    renderAdmin(same("queued"));
    expect(screen.getByText("Building the SEO report for Summit Peak Roofing.")).toBeTruthy();
  });

  it("shows the header, summary and every section in order", () => {
    renderAdmin(adminData());
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Report for Summit Peak Roofing (Summit Peak LLC)");
    const summary = screen.getByLabelText("Prospect summary");
    for (const text of ["roofer in austin", "Austin, TX", "November 21, 2026", "Summit Peak LLC", "Roofing"]) {
      expect(within(summary).getByText(text)).toBeTruthy();
    }
    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(["Shared link activity", "What we found", ...REPORT_SECTION_HEADINGS]);
    expect(screen.getByText("Why This Copy Works")).toBeTruthy();
    expect(screen.getByText("Why These Meta Tags Work")).toBeTruthy();
    // Display URL: spaces become underscores.
    expect(screen.getAllByText("www.summit_peak_roofing.com").length).toBeGreaterThan(0);
    // The HTML snippet with title, meta description and canonical link.
    const code = document.querySelector("pre code")!.textContent!;
    expect(code).toContain("<title>Roof Repair Austin | Summit Peak</title>");
    expect(code).toContain('<meta name="description" content="Trusted roof repair in Austin, TX. Call today.">');
    expect(code).toContain('<link rel="canonical" href="https://www.summitpeak.com">');
    // Blog keywords: the first is primary.
    expect(screen.getByText("Primary").closest("li")!.textContent).toContain("roof repair austin");
    expect(screen.getByText("Family-owned roofers.")).toBeTruthy();
    // Admin view: no engagement figures, no business relevance.
    expect(screen.queryByText(/31 likes/)).toBeNull();
    expect(screen.queryByText("Business Relevance")).toBeNull();
  });

  it.each([
    [100, "HIGH"],
    [80, "HIGH"],
    [79, "MEDIUM"],
    [60, "MEDIUM"],
    [59, "LOW"],
    [1, "LOW"],
  ])("labels a score of %i as %s, with the bar, percent and one-decimal figures", (score, label) => {
    renderAdmin(adminData({ content: content({ seoPotential: potentialFromScore(score) }) }));
    expect(screen.getByTestId("ranking-label").textContent).toBe(label);
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe(String(score));
    expect(screen.getByText(`${score}%`)).toBeTruthy();
    expect(screen.getByText((score / 10).toFixed(1))).toBeTruthy();
  });

  it("shows the three empty messages", () => {
    renderAdmin(adminData({ content: content({ gmbArticles: [], blogStructures: [], facebookPosts: [] }) }));
    expect(screen.getByText("No GMB article ideas available.")).toBeTruthy();
    expect(screen.getByText("No blog structure ideas available.")).toBeTruthy();
    expect(screen.getByText("No Facebook post ideas available.")).toBeTruthy();
  });

  it("renders AI text as text, never as HTML", () => {
    renderAdmin(adminData());
    expect(screen.getByText(`Summit Peak Roofing ${HOSTILE}`)).toBeTruthy();
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it("says so, and why, when the content is template content", () => {
    renderAdmin(adminData({ source: "template", attempts: 5, last_error: "AI generation failed 5 times; last error: API request failed: 500" }));
    expect(screen.getByText("Template content — AI was unavailable")).toBeTruthy();
    expect(screen.getByText(/API request failed: 500/)).toBeTruthy();
  });

  it("explains a missing AI key", () => {
    renderAdmin(adminData({ source: "template", ai_configured: false, last_error: AI_NOT_CONFIGURED_REASON }));
    expect(screen.getByText(/No AI key is configured/)).toBeTruthy();
  });

  it("Share Report copies the link and says 'Link copied to clipboard!' for 3 seconds; Copy Ad says 'Copied' for 2", async () => {
    vi.useFakeTimers();
    renderAdmin(adminData());
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Share Report" }));
    });
    expect(writeText).toHaveBeenCalledWith("http://localhost:3000/shared/reports/r-1");
    expect(screen.getByText("Link copied to clipboard!")).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(2900);
    });
    expect(screen.queryByText("Link copied to clipboard!")).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText("Link copied to clipboard!")).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy Ad" }));
    });
    expect(writeText).toHaveBeenLastCalledWith(`Summit Peak Roofing ${HOSTILE}\nwww.summit_peak_roofing.com\nFast, friendly roof repair.`);
    expect(screen.getByRole("button", { name: "Copied" })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(2001);
    });
    expect(screen.queryByRole("button", { name: "Copied" })).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy Code" }));
    });
    expect(writeText.mock.lastCall![0]).toContain("<title>");
  });

  it("shows the shared link's activity: opens, first open and what was read", async () => {
    const now = Date.now();
    const at = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
    stubFetch((url) =>
      url.endsWith("/api/reports/r-1/views")
        ? json({
            stats: { opens: 2, first_opened_at: at(120), last_opened_at: at(5), visits: 2, chat_started: 1, prints: 0 },
            sections: [{ section: "google-ads", visits: 1 }],
            events: [
              { event: "chat_started", section: null, at: at(4), visit: "v2" },
              { event: "section_viewed", section: "meta-tags", at: at(5), visit: "v2" },
              { event: "section_viewed", section: "google-ads", at: at(5), visit: "v2" },
              { event: "opened", section: null, at: at(5), visit: "v2" },
              { event: "opened", section: null, at: at(120), visit: "v1" },
            ],
          })
        : notFound(),
    );
    renderAdmin(adminData());
    expect(await screen.findByText("Opened 2× · last 5 min ago")).toBeTruthy();
    expect(screen.getByText("Started a chat")).toBeTruthy();
    expect(screen.getByText("Read Meta Tags, Google Ads")).toBeTruthy();
    expect(screen.getAllByText("Opened the report")).toHaveLength(2);
  });

  it("says when the shared link was not opened yet", async () => {
    stubFetch((url) => (url.endsWith("/api/reports/r-1/views") ? json(NO_VIEWS) : notFound()));
    renderAdmin(adminData());
    expect(await screen.findByText(/Not opened yet/)).toBeTruthy();
  });

  it("shows the generating screen with real progress while the report is not ready", () => {
    renderAdmin(adminData({ status: "queued", content: null, attempts: 2, last_error: "AI request timed out" }));
    expect(screen.getByRole("heading", { name: "Generating Content" })).toBeTruthy();
    expect(screen.getByText("This may take a minute or two. Please don't close this page.")).toBeTruthy();
    expect(screen.getByText("Queued for attempt 3 of 5")).toBeTruthy();
    expect(screen.getByText(/Attempt 2 did not finish: AI request timed out/)).toBeTruthy();
  });
});

function sharedData(status: SharedReportResponse["report"]["status"] = "ready"): SharedReportResponse {
  return {
    report: {
      id: "r-1",
      status,
      source: "ai",
      created_at: "2026-11-21T10:00:00.000Z",
      generated_at: "2026-11-22T10:00:00.000Z",
      version: 2,
      content: status === "ready" ? content() : null,
    },
    prospect: { name: "Summit Peak Roofing", company_name: "Summit Peak LLC", area: "Austin, TX", keyword: "roofer in austin", tag: "Roofing", description: "Family-owned roofers." },
    sender: { company_name: "Lighthouse Marketing", logo_url: null, website: null },
  };
}

describe("shared report page", () => {
  it("loads without sign-in and shows the overview, every section, engagement and the date", async () => {
    const fetch = stubFetch((url) => (url === "/api/shared/reports/r-1" ? json(sharedData()) : notFound()));
    renderApp("/shared/reports/r-1", { ...signedIn(), user: null, session: null });
    expect(await screen.findByText("Loading report...")).toBeTruthy();
    expect(await screen.findByRole("heading", { level: 1, name: "Summit Peak Roofing" })).toBeTruthy();
    expect(screen.getByText("Summit Peak LLC")).toBeTruthy();
    expect(screen.getByText("Lighthouse Marketing")).toBeTruthy();
    const overview = screen.getByRole("navigation", { name: "Report overview" });
    expect(within(overview).getAllByRole("link")).toHaveLength(6);
    expect(within(overview).getByRole("link", { name: /Facebook Posts/ }).getAttribute("href")).toBe("#facebook-posts");
    expect(screen.getByText("Business Relevance")).toBeTruthy();
    expect(screen.getByText((72 / 100 * 9.5).toFixed(1))).toBeTruthy();
    expect(screen.getByText(/31 likes/)).toBeTruthy();
    expect(screen.getByText("Generated on November 22, 2026")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Share Report" })).toBeNull();
    const init = fetch.mock.calls[0]![1] as RequestInit;
    expect(new Headers(init.headers).get("Authorization")).toBeNull();
  });

  it("shows no company line when the company only repeats the business's name", async () => {
    const data = sharedData();
    stubFetch((url) => (url === "/api/shared/reports/r-1" ? json({ ...data, prospect: { ...data.prospect, company_name: "Summit Peak Roofing" } }) : notFound()));
    renderApp("/shared/reports/r-1", { ...signedIn(), user: null, session: null });
    await screen.findByRole("heading", { level: 1, name: "Summit Peak Roofing" });
    expect(screen.getAllByText("Summit Peak Roofing").filter((el) => el.classList.contains("shared-company"))).toHaveLength(0);
  });

  it("copies the ad for the prospect and reports the open with a beacon of this visit", async () => {
    const sendBeacon = vi.fn(() => true);
    Object.defineProperty(navigator, "sendBeacon", { value: sendBeacon, configurable: true });
    stubFetch((url) => (url === "/api/shared/reports/r-1" ? json(sharedData()) : notFound()));
    renderApp("/shared/reports/r-1", { ...signedIn(), user: null, session: null });
    await screen.findByRole("heading", { level: 1, name: "Summit Peak Roofing" });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy Ad" }));
    });
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining("Fast, friendly roof repair."));
    expect(screen.getByRole("button", { name: "Copied" })).toBeTruthy();
    await waitFor(() => expect(sendBeacon).toHaveBeenCalled());
    const [url, blob] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toBe("/api/shared/reports/r-1/events");
    expect(JSON.parse(await blob.text())).toMatchObject({ event: "opened", visit: expect.any(String) });
  });

  it("says the report is being prepared while it is generated", async () => {
    stubFetch(() => json(sharedData("generating")));
    renderApp("/shared/reports/r-1", { ...signedIn(), user: null, session: null });
    expect(await screen.findByText("Your report is being prepared")).toBeTruthy();
  });

  it("shows 'Report Not Found' with a way home", async () => {
    stubFetch(() => json({ error: { code: "not_found", message: "Report not found" } }, 404));
    renderApp("/shared/reports/nope", { ...signedIn(), user: null, session: null });
    expect(await screen.findByRole("heading", { name: "Report Not Found" })).toBeTruthy();
    expect(screen.getByText("The report you are looking for does not exist or has been removed.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go to Homepage" }).getAttribute("href")).toBe("/");
  });
});

describe("Create New Report", () => {
  it("offers the 21 categories and asks for the required fields", async () => {
    const fetch = stubFetch(() => json({ reports: [] }));
    renderApp("/admin/new-report", signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { name: "Create New Report" })).toBeTruthy();
    const select = screen.getByLabelText("Business Category") as HTMLSelectElement;
    expect(select.options.length).toBe(22);
    expect(select.options[1]!.value).toBe("Roofing");
    expect(select.options[21]!.value).toBe("Other");
    fireEvent.click(screen.getByRole("button", { name: "Create & Generate Content" }));
    expect(await screen.findByText("Please fill in all required fields")).toBeTruthy();
    expect(fetch.mock.calls.some(([url]) => String(url) === "/api/reports")).toBe(false);
  });

  it("shows the generating screen, then opens the report after 1.5 seconds", async () => {
    const posted: unknown[] = [];
    stubFetch((url, init) => {
      if (url === "/api/reports" && init.method === "POST") {
        posted.push(JSON.parse(String(init.body)));
        return json({ ...adminData({ status: "queued", content: null }), report: { ...adminData().report, id: "new-1", status: "queued" } }, 201);
      }
      if (url.startsWith("/api/reports/new-1")) return json(adminData({ status: "queued", content: null }));
      return json({ reports: [] });
    });
    const { location } = renderApp("/admin/new-report", signedIn({ admin: true }));
    await screen.findByRole("heading", { name: "Create New Report" });
    fireEvent.change(screen.getByLabelText(/Business Name/), { target: { value: "Summit Peak Roofing" } });
    fireEvent.change(screen.getByLabelText(/Business Location/), { target: { value: "Austin, TX" } });
    fireEvent.change(screen.getByLabelText(/Target Keyword/), { target: { value: "roof repair" } });
    fireEvent.change(screen.getByLabelText("Business Description"), { target: { value: "Roof repair and replacement" } });
    // The typed keyword is the report's (issue 39): no derived one is offered in its place.
    expect(screen.queryByText(/The report will target/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Create & Generate Content" }));
    expect(await screen.findByRole("heading", { name: "Generating Content" })).toBeTruthy();
    expect(screen.getByText("This may take up to a minute.")).toBeTruthy();
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(
      expect.arrayContaining(["Google My Business article ideas", "Educational Facebook posts", "An SEO potential score"]),
    );
    await waitFor(() => expect(posted[0]).toMatchObject({ name: "Summit Peak Roofing", area: "Austin, TX", keyword: "roof repair", generate: true }));
    await waitFor(() => expect(location().pathname).toBe("/admin/reports/new-1"), { timeout: 3000 });
  });

  it("returns to the form with the spec's message when creation fails", async () => {
    stubFetch((url, init) =>
      url === "/api/reports" && init.method === "POST"
        ? json({ error: { code: "service_unavailable", message: "Failed to create report" } }, 503)
        : json({ reports: [] }),
    );
    renderApp("/admin/new-report", signedIn({ admin: true }));
    await screen.findByRole("heading", { name: "Create New Report" });
    fireEvent.change(screen.getByLabelText(/Business Name/), { target: { value: "A" } });
    fireEvent.change(screen.getByLabelText(/Business Location/), { target: { value: "B" } });
    fireEvent.change(screen.getByLabelText(/Target Keyword/), { target: { value: "C" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Only" }));
    expect(await screen.findByText("Failed to create report")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Create New Report" })).toBeTruthy();
  });
});

describe("prospect card", () => {
  const base = {
    id: "p-1",
    name: "Summit Peak Roofing",
    description: "",
    area: "Denver, CO",
    keyword: "roofer denver",
    phone: "",
    email: "",
    tag: null,
    company_name: "",
    user_id: null,
    created_at: "2026-11-20T10:00:00.000Z",
  };
  const card = (report: { opens?: number; last_opened_at?: string | null }) =>
    render(
      <MemoryRouter>
        <ProspectCard
          prospect={{ ...base, report: { id: "r-1", status: "ready", content_generated: true, ...report } }}
          saving={false}
          readOnly={false}
          onTagChange={() => undefined}
          onDelete={() => undefined}
        />
      </MemoryRouter>,
    );

  it("shows 'Opened {n}× · last {time ago}' once the shared report was opened", () => {
    card({ opens: 3, last_opened_at: new Date(Date.now() - 3 * 3600_000).toISOString() });
    expect(screen.getByText("Opened 3× · last 3 h ago")).toBeTruthy();
  });

  it("says 'Not opened yet' before that", () => {
    card({ opens: 0, last_opened_at: null });
    expect(screen.getByText("Not opened yet")).toBeTruthy();
  });
});
