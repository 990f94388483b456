// Both report pages poll through TanStack Query (refetchInterval): until the report is ready, keeping what is
// shown when a later poll fails; the shared page says 'Report Not Found' only for a 404 and offers a retry otherwise.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminReportResponse, SharedReportResponse } from "../../worker/features/reports/rules/view";
import { json, notFound, renderApp, signedIn, stubFetch } from "./helpers";

afterEach(() => vi.useRealTimers());

function adminReport(status: AdminReportResponse["report"]["status"]): AdminReportResponse {
  return {
    report: {
      id: "r-1",
      status,
      source: null,
      attempts: 1,
      max_attempts: 5,
      last_error: null,
      content_generated: false,
      created_at: "2026-11-21T10:00:00.000Z",
      generated_at: null,
      version: 1,
      questions: [],
      content: null,
    },
    prospect: {
      id: "p-1",
      name: "Summit Peak Roofing",
      company_name: "",
      phone: "",
      email: "",
      description: "",
      area: "Austin, TX",
      keyword: "roofer in austin",
      tag: "Roofing",
      created_at: "2026-11-21T10:00:00.000Z",
      website: null,
    },
    ai_configured: true,
    share_url: "http://localhost:3000/shared/reports/r-1",
  };
}

function sharedPreparing(): SharedReportResponse {
  return {
    report: { id: "r-1", status: "generating", source: null, created_at: "2026-11-21T10:00:00.000Z", generated_at: null, version: 1, content: null },
    prospect: { name: "Summit Peak Roofing", company_name: "", area: "Austin, TX", keyword: "roofer in austin", tag: "Roofing", description: "" },
    sender: null,
  };
}

const reportCalls = (fetch: ReturnType<typeof stubFetch>, path: string) => fetch.mock.calls.filter(([url]) => String(url) === path).length;

describe("report polling", () => {
  it("asks for the admin report again until it is ready, then stops", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [adminReport("queued"), adminReport("generating"), adminReport("ready")];
    const fetch = stubFetch((url) => (url === "/api/reports/r-1" ? json(answers.shift() ?? adminReport("ready")) : json({ reports: [] })));
    renderApp("/admin/reports/r-1", signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { name: "Generating Content" })).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    await waitFor(() => expect(reportCalls(fetch, "/api/reports/r-1")).toBe(3));
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(reportCalls(fetch, "/api/reports/r-1")).toBe(3);
  });

  it("keeps the shared page shown when a later poll fails, and says 'Report Not Found' once the report is gone", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers: Array<() => Response> = [
      () => json(sharedPreparing()),
      () => json({ error: { code: "internal_error", message: "Something went wrong" } }, 500),
      () => notFound(),
    ];
    const fetch = stubFetch((url) => (url === "/api/shared/reports/r-1" ? (answers.shift() ?? notFound)() : notFound()));
    renderApp("/shared/reports/r-1", { ...signedIn(), user: null, session: null });
    expect(await screen.findByText("Your report is being prepared")).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(5100));
    await waitFor(() => expect(reportCalls(fetch, "/api/shared/reports/r-1")).toBe(2));
    expect(screen.getByText("Your report is being prepared")).toBeTruthy();
    // After a failure the next poll comes twice as late.
    await act(async () => vi.advanceTimersByTimeAsync(10_100));
    expect(await screen.findByRole("heading", { name: "Report Not Found" })).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(20_000));
    expect(reportCalls(fetch, "/api/shared/reports/r-1")).toBe(3);
  });

  it("answers a server error on the shared page with a retry message, not 'Report Not Found'", async () => {
    let fail = true;
    stubFetch((url) =>
      url === "/api/shared/reports/r-1"
        ? fail
          ? json({ error: { code: "internal_error", message: "Something went wrong" } }, 500)
          : json(sharedPreparing())
        : notFound(),
    );
    renderApp("/shared/reports/r-1", { ...signedIn(), user: null, session: null });
    expect(await screen.findByRole("heading", { name: "Report Unavailable" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Report Not Found" })).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Your report is being prepared")).toBeTruthy();
  });
});
