// The clients view (issue 41) against stubbed answers typed by the contract: each client's health with its reasons,
// the figures of each group (a dash where there is no data), sort/filter/search/"my clients" sent to the server, the
// manager picked, a view saved and a column hidden (kept on the server), CSV, the empty and error states, and the bulk actions (one estimate, then what started).
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ClientRow, ClientsResponse } from "../../worker/features/command-center/rules/clients";
import type { BulkEstimate, BulkItem, BulkResult } from "../../worker/features/command-center/rules/bulk";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const row = (over: Partial<ClientRow>): ClientRow => ({
  userId: "user-a",
  name: "Leaky Roofing",
  email: "owner@leaky.test",
  plan: null,
  manager: null,
  google: "connected",
  health: { level: "act", text: "2 low reviews unanswered; Google changed the phone number", reasons: ["2 low reviews unanswered", "Google changed the phone number"] },
  reviews: { total: 40, newThisMonth: 3, average: 4.2, unanswered: 5, lowUnanswered: 2, replyRate: 0.8 },
  rank: { solv: 42, atrp: 3.4, solvChange: -12, keywords: 10, keywordsUp: 2, keywordsDown: 3, top3: 4, scannedAt: "2026-11-20T10:00:00Z", leftTop3: [] },
  citations: { score: 71, scoreChange: 4, wrong: 2, gaps: 5, scannedAt: "2026-11-01T10:00:00Z", wrongMajor: ["Yelp"] },
  ai: { mentionRate: 0.35, low: 0.22, high: 0.5, previousRate: 0.6, direction: "down", scannedAt: "2026-11-25T10:00:00Z" },
  posts: { lastPublishedAt: "2026-11-27T15:00:00Z", failed: 1, scheduled: 2 },
  report: { month: "2026-10", status: "ready", sentAt: "2026-11-01T14:00:00Z", openedAt: null, enabled: true },
  usage: { spentCents: 1250, allowanceCents: 2000 },
  updatedAt: "2026-11-28T10:00:00Z",
  ...over,
});

const EMPTY = row({ userId: "user-b", name: "New HVAC", email: "owner@newhvac.test", health: { level: "fine", text: "Nothing needs doing", reasons: [] }, reviews: null, rank: null, citations: null, ai: null, posts: null, report: null, usage: null, updatedAt: null, google: "none" });

const page = (clients: ClientRow[], over: Partial<ClientsResponse> = {}): ClientsResponse => ({
  clients,
  total: clients.length,
  page: 1,
  pageSize: 50,
  admins: [{ id: "admin-1", email: "owner@agency.test" }, { id: "admin-2", email: "sam@agency.test" }],
  settings: { hiddenColumns: [], views: [] },
  ...over,
});

function api(answer: () => ClientsResponse | Response) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    const method = init.method ?? "GET";
    if (url.startsWith("/api/agency")) {
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith("/api/agency/clients/export.csv")) return new Response('"Client"\r\n"Leaky Roofing"\r\n', { headers: { "Content-Type": "text/csv" } });
      if (method === "GET") {
        const a = answer();
        return a instanceof Response ? a : json(a);
      }
      return json({ ok: true });
    }
    return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
  });
  return { calls, gets: () => calls.filter((c) => c.method === "GET").map((c) => c.url), writes: () => calls.filter((c) => c.method !== "GET") };
}

const line = async (name: string) => (await screen.findByText(name, {}, { timeout: 5000 })).closest("tr")!;

describe("Clients", () => {
  it("shows each client's health with why, and every group's figures, a dash where there are none", async () => {
    api(() => page([row({}), EMPTY]));
    renderApp("/admin/clients", signedIn({ admin: true }));
    const leaky = await line("Leaky Roofing");
    const health = within(leaky).getByText("Needs action");
    expect(health.getAttribute("title")).toBe("2 low reviews unanswered; Google changed the phone number");
    expect(within(leaky).getByText("5 unanswered")).toBeTruthy();
    expect(within(leaky).getByText(/2 low · 3 new this month · ★ 4\.2 · 80% replied/)).toBeTruthy();
    expect(within(leaky).getByText("SoLV 42%")).toBeTruthy();
    expect(within(leaky).getByText(/-12 pts · ATRP 3\.4 · 2↑ 3↓/)).toBeTruthy();
    expect(within(leaky).getByText("Score 71")).toBeTruthy();
    expect(within(leaky).getByText("35%")).toBeTruthy();
    expect(within(leaky).getByText(/22%–50% · fell/)).toBeTruthy();
    expect(within(leaky).getByText("1 failed")).toBeTruthy();
    expect(within(leaky).getByText("sent, not opened")).toBeTruthy();
    expect(within(leaky).getByText("$12.50")).toBeTruthy();
    const fresh = await line("New HVAC");
    expect(within(fresh).getByText("Fine")).toBeTruthy();
    expect(within(fresh).getByText("Figures arrive within the hour for a new client.")).toBeTruthy();
    expect(within(fresh).getAllByText("—").length).toBeGreaterThan(4);
  });

  it("sends sort, filter, search and my clients to the server; picks a manager", async () => {
    const stub = api(() => page([row({})]));
    renderApp("/admin/clients", signedIn({ admin: true }));
    const leaky = await line("Leaky Roofing");
    fireEvent.change(screen.getByLabelText("Sort"), { target: { value: "reviews" } });
    fireEvent.change(screen.getByLabelText("Show"), { target: { value: "act" } });
    fireEvent.change(screen.getByLabelText("Account manager"), { target: { value: "me" } });
    fireEvent.change(screen.getByLabelText("Search clients"), { target: { value: "leaky" } });
    await waitFor(() => expect(stub.gets().at(-1)).toBe("/api/agency/clients?sort=reviews&filter=act&page=1&q=leaky&manager=me"));
    fireEvent.change(within(leaky).getByLabelText("Account manager of Leaky Roofing"), { target: { value: "admin-2" } });
    await waitFor(() => expect(stub.writes()).toEqual([{ method: "PUT", url: "/api/agency/clients/user-a", body: { managerId: "admin-2" } }]));
  });

  it("saves a view and hides a column on the server; a hidden column stays hidden", async () => {
    const stub = api(() => page([row({})], { settings: { hiddenColumns: ["usage"], views: [{ name: "Mine", sort: "health", filter: "act", q: "", manager: "me" }] } }));
    renderApp("/admin/clients", signedIn({ admin: true }));
    await line("Leaky Roofing");
    expect(screen.queryByRole("columnheader", { name: "AI usage" })).toBeNull();
    expect(screen.getByRole("columnheader", { name: "Reviews" })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "Plan" }));
    await waitFor(() => expect(stub.writes()[0]).toEqual({ method: "PUT", url: "/api/agency/views", body: { hiddenColumns: ["usage", "plan"], views: [{ name: "Mine", sort: "health", filter: "act", q: "", manager: "me" }] } }));
    fireEvent.change(screen.getByLabelText("Name this view"), { target: { value: "Low reviews" } });
    fireEvent.click(screen.getByRole("button", { name: "Save view" }));
    await waitFor(() => expect((stub.writes()[1]!.body as { views: { name: string }[] }).views.map((v) => v.name)).toEqual(["Mine", "Low reviews"]));
    fireEvent.click(screen.getByRole("button", { name: "Mine" }));
    await waitFor(() => expect(stub.gets().at(-1)).toBe("/api/agency/clients?sort=health&filter=act&page=1&manager=me"));
  });

  it("says when there are no clients, and when the list could not be read", async () => {
    api(() => page([]));
    renderApp("/admin/clients", signedIn({ admin: true }));
    expect(await screen.findByText("No clients yet", {}, { timeout: 5000 })).toBeTruthy();
  });

  it("shows the failure with a retry", async () => {
    api(() => json({ error: { code: "internal_error", message: "Something went wrong" } }, 500));
    renderApp("/admin/clients", signedIn({ admin: true }));
    expect(await screen.findByText(/Failed to load clients: Something went wrong/, {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe("Bulk actions", () => {
  const item = (userId: string, name: string, over: Partial<BulkItem> = {}): BulkItem => ({ userId, name, status: "ready", costUsd: 0.14, allowanceLeftUsd: 1, code: null, message: null, ...over });
  const estimate = (over: Partial<BulkEstimate> = {}): BulkEstimate => ({
    action: "run_grid",
    allowed: true,
    refusal: null,
    costUsd: 0.14,
    ready: 1,
    ceilingLeftUsd: 25,
    items: [item("user-a", "Leaky Roofing"), item("user-b", "New HVAC", { status: "skipped", costUsd: 0, code: "no_grid_yet", message: "No grid yet: the first one is run from the client's Local Search Grid, with its keyword and size." })],
    ...over,
  });

  function bulkApi(est: BulkEstimate, run: () => Response) {
    const posts: { url: string; body: unknown }[] = [];
    stubFetch((url, init) => {
      if (url.startsWith("/api/agency/clients/bulk")) {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return url.includes("estimate=1") ? json(est) : run();
      }
      if (url.startsWith("/api/agency/clients")) return json(page([row({}), EMPTY]));
      return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
    });
    return posts;
  }

  async function chooseAndReview(action: string) {
    renderApp("/admin/clients", signedIn({ admin: true }));
    await line("Leaky Roofing");
    expect(screen.queryByRole("region", { name: "Bulk actions" })).toBeNull();
    fireEvent.click(screen.getByRole("checkbox", { name: "Select every client on this page" }));
    const bar = screen.getByRole("region", { name: "Bulk actions" });
    expect(within(bar).getByText("2 selected")).toBeTruthy();
    fireEvent.change(within(bar).getByLabelText("Action"), { target: { value: action } });
    fireEvent.click(within(bar).getByRole("button", { name: "Review cost…" }));
    return screen.findByRole("dialog");
  }

  it("shows one estimate for the selection, client by client, then what started", async () => {
    const posts = bulkApi(estimate(), () =>
      json({ action: "run_grid", started: 1, failed: 0, skipped: 1, costUsd: 0.14, items: [item("user-a", "Leaky Roofing", { status: "started" }), estimate().items[1]!] } satisfies BulkResult),
    );
    const dialog = await chooseAndReview("run_grid");
    expect(await within(dialog).findByText(/1 of 2 clients ready · about \$0\.14 in all/)).toBeTruthy();
    expect(within(dialog).getByText(/No grid yet/)).toBeTruthy();
    expect(within(dialog).getByText("Cannot run")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Start for 1 client" }));
    expect(await within(dialog).findByText(/Started for 1 client; 1 could not run\./)).toBeTruthy();
    expect(posts.map((p) => p.url)).toEqual(["/api/agency/clients/bulk?estimate=1", "/api/agency/clients/bulk"]);
    expect(posts[1]!.body).toEqual({ action: "run_grid", userIds: ["user-a", "user-b"] });
    fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Bulk actions" })).toBeNull());
  });

  it("says why a selection cannot start, and does not start it", async () => {
    const over = estimate({ allowed: false, refusal: { code: "allowance_exceeded", message: "One client does not have enough AI allowance left for this. Deselect it, or raise their allowance on Usage, then try again." }, items: [item("user-a", "Leaky Roofing", { status: "over_allowance", allowanceLeftUsd: 0.05 })] });
    const posts = bulkApi(over, () => json({ error: { code: "allowance_exceeded", message: "x", estimate: over } }, 402));
    const dialog = await chooseAndReview("ai_scan");
    expect(await within(dialog).findByText(/One client does not have enough AI allowance left/)).toBeTruthy();
    expect(within(dialog).getByText("Not enough allowance")).toBeTruthy();
    expect(within(dialog).getByText(/\$0\.05 left/)).toBeTruthy();
    expect((within(dialog).getByRole("button", { name: "Start" }) as HTMLButtonElement).disabled).toBe(true);
    expect(posts.every((p) => p.url.includes("estimate=1"))).toBe(true);
    expect(posts[0]!.body).toEqual({ action: "ai_scan", userIds: ["user-a", "user-b"] });
  });
});

describe("Each figure links to the screen behind it, read as the client", () => {
  it("opens the client's screen read as them (no view to start), and the admin's own again elsewhere", async () => {
    const reads: { url: string; viewAs: string | null }[] = [];
    stubFetch((url, init) => {
      if (url.startsWith("/api/agency/clients")) return json(page([row({})]));
      if (url.startsWith("/api/reviews")) reads.push({ url, viewAs: new Headers(init.headers).get("X-View-As") });
      if (url.startsWith("/api/reviews?"))
        return json({ connection: "not_connected", connectHint: "Connect Google", sync: { lastSyncAt: null, nextSyncAt: null, error: null, googleAverage: null, googleTotal: null }, aiAvailable: false, counts: { all: 0, needs_reply: 0, low: 0, with_text: 0, replied: 0 }, reviews: [], figures: { total: 0, averageRating: null, replyRate: null, medianReplyHours: null, months: [], competitors: [], pass: null }, timeZone: "America/Chicago" });
      if (url.startsWith("/api/reviews/settings")) return json({ settings: { tone: "friendly", signature: "", autoPublish: false, autoPublishDelayHours: 24 } });
      return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
    });
    const app = renderApp("/admin/clients", signedIn({ admin: true }));
    const leaky = await line("Leaky Roofing");
    const link = within(leaky).getByRole("link", { name: "5 unanswered" });
    expect(link.getAttribute("href")).toBe("/tools/reviews?client=user-a&clientName=Leaky+Roofing");

    fireEvent.click(link);
    expect(await screen.findByText("Reading a client's screen", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getAllByText("Leaky Roofing").length).toBeGreaterThan(0);
    await waitFor(() => expect(reads.some((r) => r.url.startsWith("/api/reviews?"))).toBe(true));
    expect(reads.every((r) => r.viewAs === "user-a")).toBe(true);

    // Anywhere else is the admin's own again.
    reads.length = 0;
    await app.navigate("/tools/reviews");
    await waitFor(() => expect(reads.some((r) => r.url.startsWith("/api/reviews?"))).toBe(true));
    expect(reads.every((r) => r.viewAs === null)).toBe(true);
    expect(screen.queryByText("Reading a client's screen")).toBeNull();
  });
});
