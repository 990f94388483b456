// The client's Reports page (issue 30) against stubbed API answers typed by the contract: their reports newest first
// with View and PDF, dates in the business's time zone, their own mail switch and recipients, and the empty, loading and
// error states in the customer's words.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientReportListResponse } from "../../worker/features/client-reports/rules/client-report";
import { formatDayIn, lastWholeMonth, monthLabel, nextFirstOfMonth } from "../../web/features/client-reports/client-report-delivery";
import { others, report, settings, userList } from "./client-reports-fixtures";
import { startViewAs } from "../../web/lib/view-as";
import { fakeProfile, fakeUser, hangingResponse, json, renderApp, signedIn, stubFetch } from "./helpers";

afterEach(() => vi.useRealTimers());

type Call = { method: string; url: string; body: unknown; viewAs: string | null };

function api(list: () => ClientReportListResponse | Response | Promise<Response>, timeZone = "America/Los_Angeles") {
  const calls: Call[] = [];
  stubFetch((url, init) => {
    const method = init.method ?? "GET";
    if (url === "/api/profile") return json({ profile: { ...fakeProfile(fakeUser(), false), time_zone: timeZone } });
    if (url.startsWith("/api/client-reports")) {
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined, viewAs: new Headers(init.headers).get("X-View-As") });
      if (method !== "GET") return json({ settings: settings() });
      const answer = list();
      return answer instanceof Response || answer instanceof Promise ? answer : json(answer);
    }
    return others(url);
  });
  return { calls, writes: () => calls.filter((c) => c.method !== "GET"), gets: () => calls.filter((c) => c.method === "GET").length };
}

const own = (over = {}) => settings({ userId: "user-1", enabledBy: "user", enabled: true, ...over });

describe("Reports (the client's page)", () => {
  it("says which added addresses wait for their owner's confirmation (issue 39: no report without consent)", async () => {
    api(() => userList([], own({ recipients: ["me@ridge.test", "partner@example.com"], pending: ["partner@example.com"] })));
    renderApp("/reports", signedIn());
    expect(await screen.findByText("Waiting for confirmation: partner@example.com. It was mailed a link and gets the report once confirmed.")).toBeTruthy();
    expect(screen.getByText(/Anyone else you add gets a mail to confirm first/)).toBeTruthy();
  });

  it("lists the reports newest first with the day each was prepared in the business's zone, View and PDF", async () => {
    api(() =>
      userList(
        [
          report({ id: "rep-nov", month: "2026-11", monthLabel: "November 2026", builtAt: "2026-12-01T07:30:00.000Z", shareUrl: "/shared/client-reports/tok-nov", pdfUrl: "/shared/client-reports/tok-nov.pdf" }),
          report({ builtAt: "2026-11-01T13:05:00.000Z" }),
        ],
        own(),
      ),
    );
    renderApp("/reports", signedIn());
    const nov = (await screen.findByText("November 2026", {}, { timeout: 5000 })).closest("tr")!;
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((r) => r.querySelector(".company-name")!.textContent)).toEqual(["November 2026", "October 2026"]);
    // 07:30 UTC on Dec 1 is still Nov 30 in Los Angeles, where the business is.
    await waitFor(() => expect(within(nov).getByText("Nov 30, 2026")).toBeTruthy());
    const view = within(nov).getByRole("link", { name: "View the November 2026 report" });
    expect(view.getAttribute("href")).toBe("/shared/client-reports/tok-nov");
    expect(view.getAttribute("target")).toBe("_blank");
    expect(within(nov).getByRole("link", { name: "Download the November 2026 report as PDF" }).getAttribute("href")).toBe("/shared/client-reports/tok-nov.pdf");
    // No admin wording on the client's page.
    expect(screen.queryByText(/template|AI unavailable|queued/i)).toBeNull();
  });

  it("shows a report still being prepared without links, and a failed one in the customer's words", async () => {
    api(() =>
      userList(
        [
          report({ id: "rep-nov", month: "2026-11", monthLabel: "November 2026", status: "building", builtAt: null, shareUrl: null, pdfUrl: null }),
          report({ status: "failed", error: "D1 timeout", shareUrl: null, pdfUrl: null, builtAt: null }),
        ],
        own(),
      ),
    );
    renderApp("/reports", signedIn());
    const nov = (await screen.findByText("November 2026", {}, { timeout: 5000 })).closest("tr")!;
    expect(within(nov).getByText("Being prepared")).toBeTruthy();
    expect(within(nov).queryByRole("link")).toBeNull();
    const oct = screen.getByText("October 2026").closest("tr")!;
    expect(within(oct).getByText("Not available yet: we're on it")).toBeTruthy();
    expect(screen.queryByText("D1 timeout")).toBeNull();
  });

  it("switches the mail on and off for the user's own account with a PUT, and saves recipients after checking them", async () => {
    const stub = api(() => userList([report()], own({ recipients: ["office@plumbing.test"] })));
    renderApp("/reports", signedIn());
    const toggle = (await screen.findByRole("switch", { name: "Email me my monthly report" }, { timeout: 5000 })) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect((screen.getByLabelText("Send to") as HTMLInputElement).value).toBe("office@plumbing.test");
    fireEvent.click(toggle);
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    expect(stub.writes()[0]).toMatchObject({ method: "PUT", url: "/api/client-reports/settings/user-1", body: { enabled: false, recipients: ["office@plumbing.test"] } });
    expect(await screen.findByText("Monthly reports by mail are off.")).toBeTruthy();

    const field = screen.getByLabelText("Send to");
    fireEvent.change(field, { target: { value: "office@plumbing" + " bad@" } });
    fireEvent.click(screen.getByRole("button", { name: "Save recipients" }));
    expect(await screen.findByText(/is not a valid email address\./)).toBeTruthy();
    expect(stub.writes()).toHaveLength(1);
    fireEvent.change(field, { target: { value: "" } });
    expect(screen.getByText(/Left empty, it goes to your account's address \(owner@plumbing\.test\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save recipients" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(2));
    expect(stub.writes()[1]!.body).toEqual({ enabled: true, recipients: [] });
    expect(await screen.findByText("Recipients saved.")).toBeTruthy();
  });

  it("says when the first report arrives, in the business's time zone, with the mail on or off", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date("2026-12-01T03:00:00.000Z") });
    let enabled = true;
    api(() => userList([], own({ enabled })));
    const { unmount } = renderApp("/reports", signedIn());
    expect(await screen.findByText("No reports yet", {}, { timeout: 5000 })).toBeTruthy();
    // Still Nov 30 in Los Angeles: the first report comes on December 1.
    await waitFor(() => expect(screen.getByText(/^Your first report arrives on December 1/)).toBeTruthy());
    expect(screen.queryByRole("table")).toBeNull();
    unmount();
    enabled = false;
    renderApp("/reports", signedIn());
    expect(await screen.findByText(/^Switch on monthly reports below and your first one arrives on December 1/, {}, { timeout: 5000 })).toBeTruthy();
  });

  it("shows 'Loading...' while the list loads, then a failure with a retry, never server wording", async () => {
    let answer: () => Response | Promise<Response> = () => hangingResponse({});
    api(() => answer());
    const first = renderApp("/reports", signedIn());
    expect(await screen.findByText("Loading...", {}, { timeout: 5000 })).toBeTruthy();
    first.unmount();
    answer = () => json({ error: { code: "internal_error", message: "Something went wrong" } }, 500);
    renderApp("/reports", signedIn());
    expect(await screen.findByText("We couldn't load your reports: Something went wrong", {}, { timeout: 5000 })).toBeTruthy();
    answer = () => json(userList([report()], own()));
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("October 2026")).toBeTruthy();
  });
});

describe("Reports while a report is prepared, and in view mode", () => {
  it("asks again while a report is being prepared and stops once it is ready", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const building = userList([report({ status: "building", builtAt: null, shareUrl: null, pdfUrl: null })], own());
    const answers = [building, userList([report()], own())];
    const stub = api(() => answers.shift() ?? userList([report()], own()));
    renderApp("/reports", signedIn());
    expect(await screen.findByText("Being prepared", {}, { timeout: 5000 })).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    expect(await screen.findByRole("link", { name: "View the October 2026 report" })).toBeTruthy();
    expect(stub.gets()).toBe(2);
    await act(async () => vi.advanceTimersByTimeAsync(20_000));
    expect(stub.gets()).toBe(2);
  });

  it("reads the viewed business's reports and keeps its mail settings read-only while an admin views as it", async () => {
    startViewAs({ adminId: "admin-1", viewingUserId: "user-9", viewingUserEmail: "owner@acme.test", viewingUserDetails: { company_name: "Acme Roofing", is_admin: false } });
    const stub = api(() => userList([report()], own({ userId: "user-9" })));
    renderApp("/reports", signedIn({ admin: true }));
    const toggle = (await screen.findByRole("switch", { name: "Email me my monthly report" }, { timeout: 5000 })) as HTMLInputElement;
    expect(toggle.disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Save recipients" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Left empty, it goes to your account's address \(owner@acme\.test\)/)).toBeTruthy();
    expect(stub.calls.find((c) => c.method === "GET")!.viewAs).toBe("user-9");
    expect(stub.writes()).toHaveLength(0);
  });
});

describe("the reports' month arithmetic in the business's time zone", () => {
  it("takes the last whole month and the next 1st across a year's end, in the zone and not in UTC", () => {
    // 05:00 UTC on Jan 1 is still Dec 31 in Chicago.
    const newYear = new Date("2027-01-01T05:00:00.000Z");
    expect(lastWholeMonth("America/Chicago", newYear)).toBe("2026-11");
    expect(lastWholeMonth("UTC", newYear)).toBe("2026-12");
    expect(nextFirstOfMonth("America/Chicago", newYear)).toBe("January 1");
    expect(nextFirstOfMonth("UTC", newYear)).toBe("February 1");
    expect(lastWholeMonth("Asia/Tokyo", new Date("2026-01-15T00:00:00.000Z"))).toBe("2025-12");
    expect(monthLabel("2026-10")).toBe("October 2026");
    expect(formatDayIn("2026-12-01T07:30:00.000Z", "America/Los_Angeles")).toBe("Nov 30, 2026");
  });
});

describe("Reports for an admin in their own view", () => {
  it("points to Client Reports when the API answers the admin's list", async () => {
    api(() => ({ role: "admin", clients: [] }));
    renderApp("/reports", signedIn({ admin: true }));
    const link = await screen.findByRole("link", { name: "Open Client Reports" }, { timeout: 5000 });
    expect(link.getAttribute("href")).toBe("/admin/client-reports");
  });
});
