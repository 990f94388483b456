// The bell (unread count, the list linking to each prospect's report, mark one/all read, empty and error states) and
// the admin-only Webhooks card on /integrations (a failing endpoint, the secret shown once, the log's replay).
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, renderApp, signedIn, stubFetch } from "./helpers";
import { ALERT_WORDS } from "../../worker/platform/notifications/rules/lead-alerts";

const notConnected = { google: { status: "not_connected", canConnect: true, locations: [], available: [], lastSyncAt: null, error: null } };
const ALERTS = [
  { id: "n1", kind: "chat_lead", text: "Ridge Roofing left their contact details in the chat", prospectId: "p1", prospectName: "Ridge Roofing", reportId: "r1", data: {}, read: false, createdAt: "2026-11-25T10:00:00.000Z" },
  { id: "n2", kind: "report_opened", text: "Acme Plumbing opened their report for the first time", prospectId: "p2", prospectName: "Acme Plumbing", reportId: "r2", data: {}, read: true, createdAt: "2026-11-24T10:00:00.000Z" },
];

/** What the rest of the frame asks for (the sidebar's newest report, the page's connection). */
function frame(url: string) {
  if (url.startsWith("/api/reports")) return json({ reports: [] });
  if (url.startsWith("/api/integrations")) return json(notConnected);
  if (url.startsWith("/api/webhooks")) return json({ endpoints: [], events: [], urlRule: "" });
  return json({});
}

/** The bell is in the sidebar (desktop) and the top bar (phones): either opens the same list. */
async function bellButton() {
  return (await screen.findAllByRole("button", { name: /^Notifications/ }))[0]!;
}

describe("the bell", () => {
  it("shows the unread count, lists alerts linking to the report, and marks one and all read", async () => {
    const fetch = stubFetch((url) => {
      if (url.startsWith("/api/notifications/read")) return json({ marked: 1, unread: 0 });
      if (url.startsWith("/api/notifications")) return json({ notifications: ALERTS, unread: 1, nextCursor: null });
      return frame(url);
    });
    renderApp("/integrations", signedIn({ admin: true }));
    await waitFor(async () => expect((await bellButton()).getAttribute("aria-label")).toBe("Notifications, 1 unread"));
    fireEvent.click(await bellButton());
    const panel = await screen.findByRole("region", { name: "Notifications" });
    const lead = within(panel).getByRole("link", { name: ALERTS[0]!.text });
    expect(lead.getAttribute("href")).toBe("/admin/reports/r1");
    expect(within(panel).getByRole("link", { name: ALERTS[1]!.text }).getAttribute("href")).toBe("/admin/reports/r2");
    // Only the unread one has its own button.
    expect(within(panel).getAllByRole("button", { name: /^Mark as read/ })).toHaveLength(1);
    fireEvent.click(within(panel).getByRole("button", { name: `Mark as read: ${ALERTS[0]!.text}` }));
    await waitFor(() => expect(fetch.mock.calls.some(([u, i]) => String(u).startsWith("/api/notifications/read") && String(i?.body) === JSON.stringify({ ids: ["n1"] }))).toBe(true));
    fireEvent.click(within(panel).getByRole("button", { name: "Mark all as read" }));
    await waitFor(() => expect(fetch.mock.calls.some(([u, i]) => String(u).startsWith("/api/notifications/read") && String(i?.body) === JSON.stringify({ all: true }))).toBe(true));
  });

  it("says so when there is nothing yet, and offers a retry when the list fails", async () => {
    let fail = true;
    stubFetch((url) => {
      if (url.startsWith("/api/notifications")) return fail ? json({ error: { code: "service_unavailable", message: "The alerts could not be loaded." } }, 503) : json({ notifications: [], unread: 0, nextCursor: null });
      return frame(url);
    });
    renderApp("/integrations", signedIn());
    fireEvent.click(await bellButton());
    const panel = await screen.findByRole("region", { name: "Notifications" });
    expect(await within(panel).findByText("The alerts could not be loaded.")).toBeTruthy();
    fail = false;
    fireEvent.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(await within(panel).findByText("No alerts yet")).toBeTruthy();
    expect((within(panel).getByRole("button", { name: "Mark all as read" }) as HTMLButtonElement).disabled).toBe(true);
    // A business owner is told about their own alerts, not prospects (issue 26).
    expect(within(panel).getByText(ALERT_WORDS.business.empty)).toBeTruthy();
    expect(within(panel).queryByText(/When a prospect opens/)).toBeNull();
  });

  it("tells an agency admin about prospects' moves when the bell is empty", async () => {
    stubFetch((url) => (url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : frame(url)));
    renderApp("/integrations", signedIn({ admin: true }));
    fireEvent.click(await bellButton());
    const panel = await screen.findByRole("region", { name: "Notifications" });
    expect(await within(panel).findByText(ALERT_WORDS.agency.empty)).toBeTruthy();
  });
});

const FAILING = {
  id: "e1",
  url: "https://hooks.example.com/porchlight",
  description: "CRM",
  events: ["report.opened", "chat.lead_captured"],
  status: "active",
  failing: true,
  failingSince: "2026-11-25T08:00:00.000Z",
  lastStatusCode: 500,
  lastError: "answered 500",
  lastAttemptAt: "2026-11-25T09:00:00.000Z",
  pausedAt: null,
  createdAt: "2026-11-20T10:00:00.000Z",
};
const DELIVERY = { id: "d1", eventId: "evt_1", eventType: "report.opened", status: "retrying", attempts: 3, responseCode: 500, lastError: "answered 500", nextAttemptAt: null, deliveredAt: null, replayOf: null, body: '{"id":"evt_1"}', createdAt: "2026-11-25T09:00:00.000Z", updatedAt: "2026-11-25T09:00:00.000Z" };
const RULE = "An https address on a public host (no IP addresses of private networks, no ports other than 443).";

describe("Webhooks on /integrations", () => {
  it("is shown to admins only", async () => {
    const fetch = stubFetch(frame);
    renderApp("/integrations", signedIn());
    expect(await screen.findByRole("heading", { name: "Google Business Profile" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Webhooks" })).toBeNull();
    expect(fetch.mock.calls.some(([u]) => String(u).startsWith("/api/webhooks"))).toBe(false);
  });

  it("lists a failing endpoint with its last response, replays from the log, and shows a new secret once", async () => {
    const fetch = stubFetch((url, init) => {
      if (url.startsWith("/api/integrations")) return json(notConnected);
      if (url.startsWith("/api/webhooks/e1/deliveries/d1/replay")) return json({ deliveryId: "d2" }, 202);
      if (url.startsWith("/api/webhooks/e1/deliveries")) return json({ deliveries: [DELIVERY], nextCursor: null });
      if (url.startsWith("/api/webhooks") && init.method === "POST") return json({ endpoint: { ...FAILING, id: "e2", failing: false }, secret: "whsec_abc123" }, 201);
      if (url.startsWith("/api/webhooks")) return json({ endpoints: [FAILING], events: [], urlRule: RULE });
      return frame(url);
    });
    renderApp("/integrations", signedIn({ admin: true }));
    const card = (await screen.findByRole("heading", { name: "Webhooks" })).closest("section")!;
    expect(await within(card).findByText(FAILING.url)).toBeTruthy();
    expect(within(card).getByText("Failing")).toBeTruthy();
    expect(within(card).getByText(/Last response: HTTP 500/)).toBeTruthy();

    fireEvent.click(within(card).getByRole("button", { name: "Delivery log" }));
    const row = (await within(card).findByText("retrying")).closest("tr")!;
    fireEvent.click(within(row).getByRole("button", { name: "Replay" }));
    await waitFor(() => expect(fetch.mock.calls.some(([u, i]) => String(u).startsWith("/api/webhooks/e1/deliveries/d1/replay") && i?.method === "POST")).toBe(true));

    fireEvent.click(within(card).getByRole("button", { name: "Add endpoint" }));
    const dialog = await screen.findByRole("dialog", { name: "Add a webhook endpoint" });
    expect(within(dialog).getByText(RULE)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Endpoint URL"), { target: { value: "https://hooks.example.com/new" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    const secret = await screen.findByRole("dialog", { name: "Your signing secret" });
    expect(within(secret).getByText("whsec_abc123")).toBeTruthy();
    const [, init] = fetch.mock.calls.find(([u, i]) => String(u) === "/api/webhooks" && i?.method === "POST")!;
    expect(JSON.parse(String(init!.body))).toEqual({ url: "https://hooks.example.com/new", description: "", events: ["prospect.created", "report.ready", "report.opened", "chat.started", "chat.lead_captured", "widget.lead", "review.created", "review.replied", "ai_visibility.changed", "client_report.sent", "client_report.opened", "attention.created", "gbp.google_updated", "gbp.verification_changed", "prospect.stage_changed"] });
    fireEvent.click(within(secret).getByRole("button", { name: "I have copied it" }));
    await waitFor(() => expect(screen.queryByText("whsec_abc123")).toBeNull());
  });
});
