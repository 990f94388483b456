// The GMB Post Scheduler and Integrations screens: a generated post opened with ?content=, what is sent when it is
// scheduled, state badges and a rejected post's reason, reminders to copy, and the connection's states.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ScheduledPostJson } from "../../worker/features/content/rules/gbp-schedule";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

afterEach(() => vi.useRealTimers());

const AUSTIN = { name: "accounts/1/locations/2", title: "Ridge Roofing — Austin", address: "Austin, TX", canOperateLocalPost: true };
const connected = { google: { status: "connected", canConnect: true, locations: [AUSTIN], available: [AUSTIN], lastSyncAt: "2026-11-20T10:00:00.000Z", error: null } };
const notConnected = { google: { status: "not_connected", canConnect: true, locations: [], available: [], lastSyncAt: null, error: null } };

function scheduled(over: Partial<ScheduledPostJson>): ScheduledPostJson {
  return {
    id: crypto.randomUUID(),
    post: { type: "STANDARD", summary: "Spring roof checks" },
    scheduledAt: "2026-12-01T15:00:00.000Z",
    timezone: "America/Chicago",
    locationName: AUSTIN.name,
    locationTitle: AUSTIN.title,
    contentId: null,
    state: "scheduled",
    reason: null,
    googlePostName: null,
    googleSearchUrl: null,
    publishedAt: null,
    createdAt: "2026-11-20T10:00:00.000Z",
    ...over,
  };
}

describe("GMB Post Scheduler", () => {
  it("opens a generated offer from ?content= and schedules it with its date, time, zone and location", async () => {
    const offer = { type: "OFFER", summary: "20% off gutter cleaning this December.", offer: { title: "20% off gutters", couponCode: "GUTTER20", startDate: "2026-12-01", endDate: "2026-12-31" }, callToAction: { actionType: "BOOK", url: "https://ridge.example/book" } };
    const fetch = stubFetch((url, init) => {
      if (url.startsWith("/api/content/item-7")) return json({ item: { id: "item-7", tool: "gmb-post", result: offer } });
      if (url.startsWith("/api/integrations")) return json(connected);
      if (url.startsWith("/api/schedule") && init?.method === "POST") return json({ post: scheduled({ post: offer as ScheduledPostJson["post"] }) }, 201);
      if (url.startsWith("/api/schedule")) return json({ posts: [], publishing: true });
      return json({});
    });
    renderApp("/tools/gmb-post-scheduler?content=item-7", signedIn());
    expect(await screen.findByRole("heading", { name: "Schedule this post" })).toBeTruthy();
    expect(await screen.findByText(/From the GMB Post Generator/)).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText("Post text") as HTMLTextAreaElement).value).toBe(offer.summary));
    expect((screen.getByLabelText("Offer title") as HTMLInputElement).value).toBe("20% off gutters");
    expect(await screen.findByText("No posts scheduled yet")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Date"), { target: { value: "2026-12-02" } });
    fireEvent.change(screen.getByLabelText("Time"), { target: { value: "09:30" } });
    fireEvent.click(screen.getByRole("button", { name: "Schedule post" }));
    expect(await screen.findByText("Post scheduled: it goes to Google at its time.")).toBeTruthy();
    const [, init] = fetch.mock.calls.find(([u, i]) => String(u).startsWith("/api/schedule") && i?.method === "POST")!;
    const body = JSON.parse(String(init!.body));
    expect(body).toMatchObject({ post: { type: "OFFER", offer: { title: "20% off gutters", couponCode: "GUTTER20" } }, locationName: AUSTIN.name, contentId: "item-7" });
    expect(new Date(body.scheduledAt).getTime()).toBe(new Date("2026-12-02T09:30").getTime());
    expect(body.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it("shows and takes times in the business's time zone, and sends UTC (issue 26)", async () => {
    const fetch = stubFetch((url, init) => {
      if (url.startsWith("/api/profile")) return json({ profile: { id: "u1", time_zone: "America/Chicago" }, viewingAs: false });
      if (url.startsWith("/api/integrations")) return json(connected);
      if (url.startsWith("/api/schedule") && init?.method === "POST") return json({ post: scheduled({}) }, 201);
      if (url.startsWith("/api/schedule")) return json({ posts: [scheduled({ timezone: "UTC" })], publishing: true });
      return json({});
    });
    renderApp("/tools/gmb-post-scheduler", signedIn());
    // 15:00 UTC on Dec 1 is 9:00 AM in Austin, whatever zone the post was stored with.
    expect(await screen.findByText(/Dec 1, 2026, 9:00\sAM CST/)).toBeTruthy();
    expect(screen.getByText("1,500 of 1,500 characters left")).toBeTruthy();
    await screen.findByText("America/Chicago time (Business Settings)");
    fireEvent.change(screen.getByLabelText("Post text"), { target: { value: "Winter roof checks are open." } });
    fireEvent.change(screen.getByLabelText("Date"), { target: { value: "2026-12-02" } });
    fireEvent.change(screen.getByLabelText("Time"), { target: { value: "09:30" } });
    fireEvent.click(screen.getByRole("button", { name: "Schedule post" }));
    await waitFor(() => expect(fetch.mock.calls.some(([u, i]) => String(u).startsWith("/api/schedule") && i?.method === "POST")).toBe(true));
    const [, init] = fetch.mock.calls.find(([u, i]) => String(u).startsWith("/api/schedule") && i?.method === "POST")!;
    const body = JSON.parse(String(init!.body));
    expect(body.scheduledAt).toBe("2026-12-02T15:30:00.000Z");
    expect(body.timezone).toBe("America/Chicago");
  });

  it("checks the post with the server's schema before sending it", async () => {
    const fetch = stubFetch((url) => (url.startsWith("/api/integrations") ? json(connected) : url.startsWith("/api/schedule") ? json({ posts: [], publishing: true }) : json({})));
    renderApp("/tools/gmb-post-scheduler", signedIn());
    await screen.findByText("No posts scheduled yet");
    fireEvent.click(screen.getByRole("button", { name: "Offer" }));
    fireEvent.click(screen.getByRole("button", { name: "Schedule post" }));
    await waitFor(() => expect(document.querySelectorAll(".field-error").length).toBeGreaterThan(0));
    expect(fetch.mock.calls.some(([u, i]) => String(u).startsWith("/api/schedule") && i?.method === "POST")).toBe(false);
  });

  it("shows each post's state, a rejected post's reason, and due reminders to copy when Google is not connected", async () => {
    stubFetch((url) => {
      if (url.startsWith("/api/integrations")) return json(notConnected);
      if (url.startsWith("/api/schedule"))
        return json({
          publishing: false,
          posts: [
            scheduled({ state: "live", post: { type: "STANDARD", summary: "We are live" }, googleSearchUrl: "https://local.google.com/post" }),
            scheduled({ state: "rejected", post: { type: "STANDARD", summary: "Call 555-0100 now" }, reason: "Google refused the post: summary: Posts may not contain phone numbers in the text." }),
            scheduled({ state: "reminded", locationName: null, locationTitle: null, post: { type: "STANDARD", summary: "Copy me onto the listing" } }),
          ],
        });
      return json({});
    });
    renderApp("/tools/gmb-post-scheduler", signedIn());
    expect(await screen.findByText("Reminders, not publishing")).toBeTruthy();
    const list = screen.getByRole("region", { name: "Scheduled posts" });
    expect(within(list).getByText("Live")).toBeTruthy();
    expect(within(list).getByRole("link", { name: /View on Google/ }).getAttribute("href")).toBe("https://local.google.com/post");
    expect(within(list).getByText(/Posts may not contain phone numbers/)).toBeTruthy();
    const due = screen.getByRole("region", { name: "Due — copy and post it" });
    expect(within(due).getByText(/Copy me onto the listing/)).toBeTruthy();
    expect(within(due).getByRole("button", { name: /Copy post/ })).toBeTruthy();
    expect(within(list).getByText("No location (reminder)", { exact: false })).toBeTruthy();
  });
});

describe("GMB Post Scheduler: changing a post", () => {
  it("reschedules a post to a new date and time, and deletes one after a confirmation", async () => {
    // The clock a few days before the post's date (Dec 1), so it is still upcoming whatever day the test runs.
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date("2026-11-23T12:00:00.000Z") });
    const post = scheduled({ post: { type: "STANDARD", summary: "Move me to Friday" } });
    const fetch = stubFetch((url, init) => {
      if (url.startsWith("/api/integrations")) return json(connected);
      if (url.startsWith(`/api/schedule/${post.id}`) && init?.method === "PATCH") return json({ post: { ...post, scheduledAt: "2026-12-04T16:00:00.000Z" } });
      if (url.startsWith(`/api/schedule/${post.id}`) && init?.method === "DELETE") return new Response(null, { status: 204 });
      if (url.startsWith("/api/schedule")) return json({ posts: [post], publishing: true });
      return json({});
    });
    renderApp("/tools/gmb-post-scheduler", signedIn());
    const row = (await screen.findByText("Move me to Friday")).closest("li")!;
    fireEvent.click(within(row).getByRole("button", { name: "Reschedule" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("Date"), { target: { value: "2026-12-04" } });
    fireEvent.change(within(dialog).getByLabelText("Time"), { target: { value: "10:00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Post rescheduled.")).toBeTruthy();
    const [, patch] = fetch.mock.calls.find(([u, i]) => String(u).startsWith(`/api/schedule/${post.id}`) && i?.method === "PATCH")!;
    const body = JSON.parse(String(patch!.body));
    expect(new Date(body.scheduledAt).getTime()).toBe(new Date("2026-12-04T10:00").getTime());
    expect(body.post.summary).toBe("Move me to Friday");
    expect(body.locationName).toBe(AUSTIN.name);

    fireEvent.click(within(row).getByRole("button", { name: "Delete post" }));
    fireEvent.click(within(row).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(fetch.mock.calls.some(([u, i]) => String(u).startsWith(`/api/schedule/${post.id}`) && i?.method === "DELETE")).toBe(true));
  });
});

describe("Integrations", () => {
  it("connected: the chosen locations and last sync; the picker marks locations Google does not allow", async () => {
    const unverified = { name: "accounts/1/locations/3", title: "Warehouse", address: "", canOperateLocalPost: false };
    stubFetch((url) => (url.startsWith("/api/integrations") ? json({ google: { ...connected.google, available: [AUSTIN, unverified] } }) : json({})));
    renderApp("/integrations", signedIn());
    expect(await screen.findByText("Connected")).toBeTruthy();
    expect(screen.getByText("Ridge Roofing — Austin")).toBeTruthy();
    expect(screen.getByText(/Last synced with Google/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Change locations" }));
    const boxes = screen.getAllByRole("checkbox") as HTMLInputElement[];
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it("says Google's 'API not enabled' answer in plain words and offers to connect again", async () => {
    stubFetch((url) =>
      url.startsWith("/api/integrations")
        ? json({ google: { ...notConnected.google, error: { code: "api_not_enabled", message: "Google says the Business Profile APIs are not enabled for this app's Google Cloud project." } } })
        : json({}),
    );
    renderApp("/integrations?error=api_not_enabled", signedIn());
    expect(await screen.findByText("Google's Business Profile APIs are not enabled")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Connect Google Business Profile" })).toBeTruthy();
    // The set-up steps are the admins' (the Set-up page), not the customer's Integrations page (issue 26).
    expect(screen.queryByText("How Google must be set up")).toBeNull();
    expect(document.body.textContent).not.toMatch(/Cloud Console|wrangler secret|\.dev\.vars|_SECRET\b/);
  });

  it("a cancelled sign-in at Google is said as such", async () => {
    stubFetch((url) => (url.startsWith("/api/integrations") ? json(notConnected) : json({})));
    renderApp("/integrations?error=access_denied", signedIn());
    expect(await screen.findByText("You cancelled at Google, so nothing was connected.")).toBeTruthy();
  });
});
