// The admin's Client Reports screen (issue 30) against stubbed API answers typed by the contract: the list, the switch
// and recipients (checked before the PUT), Send now / Rebuild / Build now, polling while a report is on its way, a
// failed build's error and the template summary's note, the empty, error and search states.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientReportListResponse } from "../../worker/features/client-reports/rules/client-report";
import { adminList, client, others, report, settings } from "./client-reports-fixtures";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

afterEach(() => vi.useRealTimers());

type Call = { method: string; url: string; body: unknown };

/** Stubs the API: GET /api/client-reports answers `list()` (called each time), writes are recorded and answered. */
function api(list: () => ClientReportListResponse | Response, write: (c: Call) => Response = () => json({ ok: true })) {
  const calls: Call[] = [];
  const fetch = stubFetch((url, init) => {
    const method = init.method ?? "GET";
    if (url.startsWith("/api/client-reports")) {
      const call = { method, url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (method === "GET") {
        const answer = list();
        return answer instanceof Response ? answer : json(answer);
      }
      return write(call);
    }
    return others(url);
  });
  return { calls, fetch, writes: () => calls.filter((c) => c.method !== "GET"), gets: () => calls.filter((c) => c.method === "GET").length };
}

const rowOf = async (name: string) => (await screen.findByText(name, {}, { timeout: 5000 })).closest("tr")!;

describe("Client Reports (admin)", () => {
  it("lists each client with the switch, recipients, last report, delivery in the client's time zone, next run and Preview", async () => {
    api(() => adminList([client()]));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    expect(within(row).getByText("owner@ridgeline.test")).toBeTruthy();
    expect(within(row).getByText("America/Chicago")).toBeTruthy();
    const toggle = within(row).getByRole("switch", { name: "Monthly report for Ridgeline Roofing" }) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(within(row).getByText("To: the account's address")).toBeTruthy();
    expect(within(row).getByText("Ready")).toBeTruthy();
    expect(within(row).getByText(/October 2026/)).toBeTruthy();
    // 14:00 UTC is 8:00 AM in Chicago (CST); first opened 15:30 UTC is 9:30 AM.
    expect(within(row).getByText("Sent Nov 1, 2026, 8:00 AM")).toBeTruthy();
    expect(within(row).getByText("Opened Nov 2, 2026, 9:30 AM · 3 views")).toBeTruthy();
    // The cron's next run, midnight of Dec 1 in Chicago.
    expect(within(row).getByText("Next report: Dec 1, 2026")).toBeTruthy();
    const preview = within(row).getByRole("link", { name: /Preview/ });
    expect(preview.getAttribute("href")).toBe("/shared/client-reports/tok-oct?preview=1");
    expect(preview.getAttribute("target")).toBe("_blank");
    expect(within(row).queryByText(/Summary from template/)).toBeNull();
    expect(within(row).getByRole("button", { name: "Rebuild" })).toBeTruthy();
  });

  it("sends the PUT when the switch is flipped, keeping the recipients", async () => {
    const stub = api(() => adminList([client({ settings: settings({ recipients: ["gm@ridgeline.test"] }) })]));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    expect(within(row).getByText("To: gm@ridgeline.test")).toBeTruthy();
    fireEvent.click(within(row).getByRole("switch", { name: "Monthly report for Ridgeline Roofing" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    expect(stub.writes()[0]).toEqual({ method: "PUT", url: "/api/client-reports/settings/user-ridge", body: { enabled: false, recipients: ["gm@ridgeline.test"] } });
  });

  it("checks the recipients before saving: a bad address and a sixth one are refused by name, valid ones are sent", async () => {
    const stub = api(() => adminList([client()]));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    fireEvent.click(within(row).getByRole("button", { name: "Edit recipients" }));
    const dialog = await screen.findByRole("dialog");
    const field = within(dialog).getByLabelText("Send to");
    expect(within(dialog).getByText(/Left empty, it goes to the account's address \(owner@ridgeline\.test\)/)).toBeTruthy();
    fireEvent.change(field, { target: { value: "gm@ridgeline.test, not-an-address" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save recipients" }));
    expect(await within(dialog).findByText('"not-an-address" is not a valid email address.')).toBeTruthy();
    fireEvent.change(field, { target: { value: "a@r.test, b@r.test, c@r.test, d@r.test, e@r.test, f@r.test" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save recipients" }));
    expect(await within(dialog).findByText("At most 5 addresses: remove 1.")).toBeTruthy();
    expect(stub.writes()).toHaveLength(0);
    fireEvent.change(field, { target: { value: "gm@ridgeline.test; office@ridgeline.test GM@ridgeline.test" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save recipients" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    expect(stub.writes()[0]!.body).toEqual({ enabled: true, recipients: ["gm@ridgeline.test", "office@ridgeline.test"] });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("Send now asks first, posts to the report's send route and shows who it went to", async () => {
    const stub = api(
      () => adminList([client()]),
      () => json({ report: report({ sentTo: ["owner@ridgeline.test", "gm@ridgeline.test"] }) }),
    );
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    fireEvent.click(within(row).getByRole("button", { name: "Send now" }));
    const dialog = await screen.findByRole("dialog", { name: "Send the October 2026 report now?" });
    expect(within(dialog).getByText(/already sent Nov 1, 2026, 8:00 AM/)).toBeTruthy();
    expect(stub.writes()).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    expect(stub.writes()[0]).toMatchObject({ method: "POST", url: "/api/client-reports/rep-oct/send" });
    expect(await within(row).findByText("Sent the October 2026 report to owner@ridgeline.test, gm@ridgeline.test.")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("shows a refused send's reason", async () => {
    api(
      () => adminList([client()]),
      () => json({ error: { code: "mail_unavailable", message: "No mail provider is set up" } }, 409),
    );
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    fireEvent.click(within(row).getByRole("button", { name: "Send now" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Send report" }));
    expect(await within(row).findByText("Could not send the report: No mail provider is set up")).toBeTruthy();
  });

  it("Rebuild posts the report's month; Build now posts the last whole month in the client's zone", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date("2026-12-01T03:00:00.000Z") });
    const fresh = client({ userId: "user-new", businessName: "Bright Plumbing", email: "hi@bright.test", lastReport: null, timeZone: "America/Los_Angeles" });
    let answered: ReturnType<typeof report> | null = null;
    const stub = api(
      () => adminList([client(), answered ? { ...fresh, lastReport: answered } : fresh]),
      (c) => {
        // The server now holds the queued report; the list read after the POST shows it.
        if ((c.body as { userId: string }).userId === "user-new") answered = report({ id: "rep-new", userId: "user-new", status: "queued", builtAt: null, sentAt: null, firstOpenedAt: null, views: 0, shareUrl: null, pdfUrl: null });
        return json({ report: answered ?? report({ status: "queued" }) });
      },
    );
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const ridge = await rowOf("Ridgeline Roofing");
    fireEvent.click(within(ridge).getByRole("button", { name: "Rebuild" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(1));
    expect(stub.writes()[0]).toEqual({ method: "POST", url: "/api/client-reports", body: { userId: "user-ridge", month: "2026-10" } });
    const bright = await rowOf("Bright Plumbing");
    expect(within(bright).getByText("None yet")).toBeTruthy();
    expect(within(bright).getByRole("button", { name: "Preview" }).hasAttribute("disabled")).toBe(true);
    expect(within(bright).getByRole("button", { name: "Send now" }).hasAttribute("disabled")).toBe(true);
    // 03:00 UTC on Dec 1 is still Nov 30 in Los Angeles: the last whole month there is October.
    fireEvent.click(within(bright).getByRole("button", { name: "Build now" }));
    await waitFor(() => expect(stub.writes()).toHaveLength(2));
    expect(stub.writes()[1]!.body).toEqual({ userId: "user-new", month: "2026-10" });
    expect(await within(bright).findByText("Building the October 2026 report.")).toBeTruthy();
  });

  it("says a report is being built only until the polled list says it is ready (issue 39: it stayed beside 'Ready')", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date("2026-12-01T03:00:00.000Z") });
    const queued = report({ status: "queued", builtAt: null, sentAt: null, firstOpenedAt: null, views: 0, shareUrl: null, pdfUrl: null });
    let built = false;
    const stub = api(
      () => adminList([client({ lastReport: built ? report({ sentAt: null, firstOpenedAt: null, views: 0 }) : queued })]),
      () => json({ report: queued }, 202),
    );
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    await waitFor(() => expect(within(row).getByText("Queued")).toBeTruthy());
    expect(within(row).getByText("Building the October 2026 report.")).toBeTruthy();
    // The build finishes; the next poll (4 s) answers Ready and the note goes with it.
    built = true;
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    expect(await within(row).findByText("Ready")).toBeTruthy();
    expect(within(row).queryByText("Building the October 2026 report.")).toBeNull();
    expect(stub.gets()).toBe(2);
  });

  it("after Rebuild the row says Building at once and polls until Ready, then the note is gone", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date("2026-12-01T03:00:00.000Z") });
    const queued = report({ status: "queued", builtAt: null, sentAt: null, firstOpenedAt: null, views: 0, shareUrl: null, pdfUrl: null });
    let state: "ready" | "queued" = "ready";
    api(
      () => adminList([client({ lastReport: state === "queued" ? queued : report({ sentAt: null, firstOpenedAt: null, views: 0 }) })]),
      () => {
        state = "queued";
        return json({ report: queued }, 202);
      },
    );
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    fireEvent.click(within(row).getByRole("button", { name: "Rebuild" }));
    expect(await within(row).findByText("Building the October 2026 report.")).toBeTruthy();
    state = "ready";
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    expect(await within(row).findByText("Ready")).toBeTruthy();
    expect(within(row).queryByText("Building the October 2026 report.")).toBeNull();
  });

  it("polls while the report is queued or building and stops once it is ready; Preview waits for ready", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [
      adminList([client({ lastReport: report({ status: "queued", builtAt: null, sentAt: null, firstOpenedAt: null, views: 0, shareUrl: null, pdfUrl: null }) })]),
      adminList([client({ lastReport: report({ status: "building", builtAt: null, sentAt: null, firstOpenedAt: null, views: 0, shareUrl: null, pdfUrl: null }) })]),
      adminList([client({ lastReport: report({ sentAt: null, firstOpenedAt: null, views: 0 }) })]),
    ];
    const stub = api(() => answers.shift() ?? adminList([client({ lastReport: report({ sentAt: null, firstOpenedAt: null, views: 0 }) })]));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const row = await rowOf("Ridgeline Roofing");
    expect(within(row).getByText("Queued")).toBeTruthy();
    expect(within(row).getByRole("button", { name: "Preview" }).hasAttribute("disabled")).toBe(true);
    expect(within(row).getByRole("button", { name: "Rebuild" }).hasAttribute("disabled")).toBe(true);
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    expect(await within(row).findByText("Building")).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(4100));
    expect(await within(row).findByText("Ready")).toBeTruthy();
    expect(within(row).getByRole("link", { name: /Preview/ })).toBeTruthy();
    expect(within(row).getByText("Not sent")).toBeTruthy();
    expect(stub.gets()).toBe(3);
    await act(async () => vi.advanceTimersByTimeAsync(20_000));
    expect(stub.gets()).toBe(3);
  });

  it("shows a failed build's error, and says when the summary came from the template", async () => {
    api(() =>
      adminList([
        client({ lastReport: report({ status: "failed", error: "Google refused the connection's token", shareUrl: null, pdfUrl: null, sentAt: null, firstOpenedAt: null, views: 0 }) }),
        client({ userId: "user-2", businessName: "Bright Plumbing", lastReport: report({ id: "rep-2", summarySource: "template", summaryNote: "no AI credit left this month" }) }),
      ]),
    );
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    const failed = await rowOf("Ridgeline Roofing");
    expect(within(failed).getByText("Failed")).toBeTruthy();
    expect(within(failed).getByText("Google refused the connection's token")).toBeTruthy();
    expect(within(failed).getByRole("button", { name: "Send now" }).hasAttribute("disabled")).toBe(true);
    expect(within(failed).getByRole("button", { name: "Rebuild" }).hasAttribute("disabled")).toBe(false);
    const template = await rowOf("Bright Plumbing");
    expect(within(template).getByText("Summary written from the figures: no AI credit left this month")).toBeTruthy();
  });

  it("filters the clients by name or email", async () => {
    api(() => adminList([client(), client({ userId: "user-2", businessName: "Bright Plumbing", email: "hi@bright.test" })]));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    await rowOf("Ridgeline Roofing");
    fireEvent.change(screen.getByLabelText("Search clients"), { target: { value: "bright.test" } });
    expect(screen.queryByText("Ridgeline Roofing")).toBeNull();
    expect(screen.getByText("Bright Plumbing")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search clients"), { target: { value: "zzz" } });
    expect(screen.getByText("No clients found")).toBeTruthy();
  });

  it("says there are no business clients yet", async () => {
    api(() => adminList([]));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    expect(await screen.findByText("No business clients yet", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("shows a failed load with a retry that loads the list", async () => {
    let fail = true;
    api(() => (fail ? json({ error: { code: "internal_error", message: "Something went wrong" } }, 500) : adminList([client()])));
    renderApp("/admin/client-reports", signedIn({ admin: true }));
    expect(await screen.findByText("Failed to load client reports: Something went wrong", {}, { timeout: 5000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: /Retry|Try again/ }));
    expect(await rowOf("Ridgeline Roofing")).toBeTruthy();
  });
});
