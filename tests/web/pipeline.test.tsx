// The pipeline (issue 42) against stubbed answers typed by the contract: the seven stages with their counts and cards,
// a card moved by keyboard (its stage picked) and by dragging it to another column, the list view, filters sent to the
// server, a card's timeline, a won prospect invited as a client, and the empty and error states.
import { createEvent, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PipelineCard, PipelineResponse, ProspectTimeline } from "../../worker/features/pipeline/rules/stages";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const card = (over: Partial<PipelineCard>): PipelineCard => ({
  prospectId: "p1",
  name: "Ridge Roofing",
  area: "Austin, TX",
  keyword: "roofer",
  tag: "Roofing",
  email: "owner@ridge.test",
  owner: { id: "admin-1", email: "admin@example.com" },
  stage: "engaged",
  movedAt: "2026-11-28T10:00:00Z",
  reportId: "r1",
  last: { text: "Opened the report", at: "2026-11-28T10:00:00Z" },
  clientId: null,
  invitedAt: null,
  ...over,
});

const board = (cards: PipelineCard[]): PipelineResponse => ({
  stages: (["new", "contacted", "engaged", "replied", "meeting", "won", "lost"] as const).map((stage) => ({ stage, label: stage[0]!.toUpperCase() + stage.slice(1), count: cards.filter((c) => c.stage === stage).length })),
  cards,
  tags: ["Roofing"],
  admins: [{ id: "admin-1", email: "admin@example.com" }],
});

const TIMELINE: ProspectTimeline = {
  prospectId: "p2",
  stage: "won",
  entries: [
    { kind: "moved", text: "Moved to Won (by admin@example.com)", at: "2026-11-28T12:00:00Z", by: "admin@example.com" },
    { kind: "report_opened", text: "Opened the report", at: "2026-11-27T12:00:00Z", by: null },
  ],
};

function api(answer: () => PipelineResponse | Response) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    const method = init.method ?? "GET";
    calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (url.startsWith("/api/pipeline/")) return json(TIMELINE);
    if (url.startsWith("/api/pipeline")) {
      const a = answer();
      return a instanceof Response ? a : json(a);
    }
    if (url.endsWith("/convert")) return json({ email: "owner@peak.test", invitedAt: "2026-11-29T10:00:00Z", message: "Invitation sent. Their account is set up from this prospect when they sign up." });
    if (url.startsWith("/api/prospects/")) return json({ prospect: {}, stage: (JSON.parse(String(init.body)) as { stage: string }).stage });
    return url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
  });
  return { calls, writes: () => calls.filter((c) => c.method !== "GET"), gets: () => calls.filter((c) => c.method === "GET" && c.url.startsWith("/api/pipeline?") || c.url === "/api/pipeline").map((c) => c.url) };
}

const column = async (name: RegExp) => screen.findByRole("region", { name }, { timeout: 5000 });

describe("Pipeline", () => {
  it("shows every stage with its count and cards, and moves a card by keyboard and by dragging", async () => {
    const stub = api(() => board([card({}), card({ prospectId: "p2", name: "Peak Plumbing", stage: "won", last: null })]));
    renderApp("/admin/pipeline", signedIn({ admin: true }));
    const engaged = await column(/^Engaged: 1$/);
    expect(within(engaged).getByText("Opened the report", { exact: false })).toBeTruthy();
    expect(screen.getByRole("region", { name: /^New: 0$/ })).toBeTruthy();
    expect(screen.getByRole("region", { name: /^Won: 1$/ })).toBeTruthy();

    fireEvent.change(within(engaged).getByLabelText("Stage of Ridge Roofing"), { target: { value: "meeting" } });
    await waitFor(() => expect(stub.writes()[0]).toEqual({ method: "PATCH", url: "/api/prospects/p1", body: { stage: "meeting" } }));

    // Dragged from Won to Lost.
    const data = new Map<string, string>();
    const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), getData: (k: string) => data.get(k) ?? "" };
    const peak = screen.getByRole("listitem", { name: "Peak Plumbing" });
    const start = createEvent.dragStart(peak);
    Object.assign(start, { dataTransfer });
    fireEvent(peak, start);
    const lost = screen.getByRole("region", { name: /^Lost: 0$/ });
    const drop = createEvent.drop(lost);
    Object.assign(drop, { dataTransfer });
    fireEvent(lost, drop);
    await waitFor(() => expect(stub.writes()[1]).toEqual({ method: "PATCH", url: "/api/prospects/p2", body: { stage: "lost" } }));
  });

  it("sends the filters to the server, and lists the same cards in the list view", async () => {
    const stub = api(() => board([card({})]));
    renderApp("/admin/pipeline", signedIn({ admin: true }));
    await column(/^Engaged: 1$/);
    fireEvent.change(screen.getByLabelText("Tag"), { target: { value: "Roofing" } });
    fireEvent.change(screen.getByLabelText("Owner"), { target: { value: "me" } });
    fireEvent.change(screen.getByLabelText("Search prospects"), { target: { value: "ridge" } });
    await waitFor(() => expect(stub.calls.filter((c) => c.url.startsWith("/api/pipeline?")).at(-1)!.url).toBe("/api/pipeline?q=ridge&tag=Roofing&owner=me"));
    fireEvent.click(screen.getByRole("tab", { name: "List" }));
    const row = (await screen.findByRole("button", { name: "Ridge Roofing" })).closest("tr")!;
    expect(within(row).getByLabelText("Stage of Ridge Roofing")).toBeTruthy();
    expect(within(row).getByText("admin@example.com")).toBeTruthy();
  });

  it("opens a card's timeline, and invites a won prospect as a client", async () => {
    const stub = api(() => board([card({ prospectId: "p2", name: "Peak Plumbing", stage: "won" })]));
    renderApp("/admin/pipeline", signedIn({ admin: true }));
    fireEvent.click(await screen.findByRole("button", { name: "Peak Plumbing" }, { timeout: 5000 }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("Moved to Won (by admin@example.com)")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Invite as a client" }));
    expect(await within(dialog).findByText(/Invitation sent\./)).toBeTruthy();
    expect(stub.writes()).toEqual([{ method: "POST", url: "/api/prospects/p2/convert", body: undefined }]);
  });

  it("says when there are no prospects", async () => {
    api(() => board([]));
    renderApp("/admin/pipeline", signedIn({ admin: true }));
    expect(await screen.findByText("No prospects yet", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open Prospects" })).toBeTruthy();
  });

  it("shows the failure with a retry", async () => {
    api(() => json({ error: { code: "internal_error", message: "Something went wrong" } }, 500));
    renderApp("/admin/pipeline", signedIn({ admin: true }));
    expect(await screen.findByText(/Failed to load the pipeline: Something went wrong/, {}, { timeout: 5000 })).toBeTruthy();
  });
});
