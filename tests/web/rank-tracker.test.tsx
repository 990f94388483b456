// The Local Rank Tracker's screens with a stubbed API: the keyword list's states (empty, loading, error, the plan's
// limit reached), a row's positions, changes and alerts, adding, pausing and deleting a keyword, the sparkline's
// gaps for failed checks, a keyword's page (history chart, each check, CSV) and the dashboard's figures.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RankHistoryChart, RankSparkline, lineSegments } from "../../web/features/rank/rank-charts";
import type { TrackedKeywordList, TrackedKeywordView } from "../../worker/features/rank/rules/view";
import { hangingResponse, json, notFound, renderApp, signedIn, stubFetch } from "./helpers";
import { check, keywordFixture, scanFixture } from "./rank-fixtures";
import { TOOL_COUNT } from "../../web/lib/tools";

afterEach(() => vi.unstubAllGlobals());

function owner() {
  const auth = signedIn();
  auth.profile = { ...auth.profile!, company_name: "Ridge Roofing", company_location: "Austin, TX" };
  return auth;
}

const view = ({ checks: _, ...k }: ReturnType<typeof keywordFixture>): TrackedKeywordView => k;
const list = (keywords: TrackedKeywordView[], over: Partial<TrackedKeywordList> = {}): TrackedKeywordList => ({ keywords, limit: 3, used: keywords.length, ...over });

const HISTORY = [
  check("2026-11-20T06:00:00.000Z", 2, 5),
  check("2026-11-21T06:00:00.000Z", "!", "!"),
  check("2026-11-22T06:00:00.000Z", 3, 4),
  check("2026-11-23T06:00:00.000Z", 7, "x"),
];

describe("the tracker's keyword list", () => {
  it("is empty at first, says so, and counts the plan's keywords", async () => {
    stubFetch((url) => (url === "/api/rank/keywords?business=own" ? json(list([])) : notFound()));
    renderApp("/tools/local-rank-tracker", owner());
    expect(await screen.findByRole("heading", { name: "No keywords tracked yet" })).toBeTruthy();
    expect(screen.getByText("0 of 3 keywords")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Track keyword" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows loading while the list is asked for, and a retry when it fails", async () => {
    stubFetch((url, init) => (url === "/api/rank/keywords?business=own" ? hangingResponse(init) : notFound()));
    renderApp("/tools/local-rank-tracker", owner());
    await screen.findByRole("heading", { level: 1, name: "Local Rank Tracker" });
    expect(screen.getByRole("status").textContent).toBe("Loading...");

    let fail = true;
    stubFetch((url) => (url === "/api/rank/keywords?business=own" ? (fail ? json({ error: { code: "internal", message: "boom" } }, 500) : json(list([]))) : notFound()));
    renderApp("/tools/local-rank-tracker", owner());
    const retry = await screen.findByRole("button", { name: /Try again/ }, { timeout: 5000 });
    expect(screen.getByText("Could not load the tracked keywords.")).toBeTruthy();
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByRole("heading", { name: "No keywords tracked yet" })).toBeTruthy();
  });

  it("at the plan's limit, says so with the upgrade link instead of the form", async () => {
    const k = view(keywordFixture(HISTORY));
    stubFetch((url) => (url === "/api/rank/keywords?business=own" ? json(list([k, { ...k, id: "kw-2" }, { ...k, id: "kw-3" }])) : notFound()));
    renderApp("/tools/local-rank-tracker", owner());
    expect(await screen.findByText("3 of 3 keywords")).toBeTruthy();
    expect(screen.getByRole("link", { name: "upgrade your plan" }).getAttribute("href")).toBe("/subscription");
    expect(screen.queryByLabelText("Keyword")).toBeNull();
    expect(screen.queryByRole("button", { name: "Track keyword" })).toBeNull();
  });

  it("shows each keyword's positions, changes since the last and the first check, its alerts and when it is paused", async () => {
    const dropped = view(keywordFixture(HISTORY));
    const paused = view(keywordFixture([check("2026-11-20T06:00:00.000Z", 9, 12), check("2026-11-23T06:00:00.000Z", 4, 10)], { id: "kw-2", keyword: "roofer near me", paused: true, nextCheckAt: null }));
    stubFetch((url) => (url === "/api/rank/keywords?business=own" ? json(list([dropped, paused])) : notFound()));
    renderApp("/tools/local-rank-tracker", owner());
    const rows = within(await screen.findByRole("list", { name: "Tracked keywords" })).getAllByRole("listitem");
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByRole("link", { name: "roof repair" }).getAttribute("href")).toBe("/tools/local-rank-tracker/kw-1");
    // 3 → 7: down 4 since the last completed check (the failed one is skipped), down 5 since the first; both alerts.
    expect(within(first).getByLabelText("Down 4 positions since the last check")).toBeTruthy();
    expect(within(first).getByLabelText("Down 5 positions since the first check")).toBeTruthy();
    expect(within(first).getByText("Dropped 3+ positions")).toBeTruthy();
    expect(within(first).getByText("Left the top 3")).toBeTruthy();
    expect(first.className).toContain("is-alert");
    expect(within(first).getByText("#7")).toBeTruthy();
    expect(within(first).getByText("Not in the top 20")).toBeTruthy();
    expect(within(second).getByLabelText("Up 5 positions since the last check")).toBeTruthy();
    expect(within(second).getByText("Paused")).toBeTruthy();
    expect(within(second).getByRole("button", { name: "Resume" })).toBeTruthy();
    expect(second.className).not.toContain("is-alert");
  });

  it("adds a keyword with its frequency, pauses one and deletes one after confirming", async () => {
    const k = view(keywordFixture(HISTORY));
    const fetch = stubFetch((url, init) => {
      if (url === "/api/rank/keywords?business=own") return json(list([k]));
      if (url === "/api/rank/keywords" && init.method === "POST") return json(view(keywordFixture([], { id: "kw-9", keyword: "gutter repair" })), 201);
      if (url === "/api/rank/keywords/kw-1" && init.method === "PATCH") return json({ ...k, paused: true });
      if (url === "/api/rank/keywords/kw-1" && init.method === "DELETE") return new Response(null, { status: 204 });
      return notFound();
    });
    renderApp("/tools/local-rank-tracker", owner());
    expect(await screen.findByText("1 of 3 keywords")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Keyword"), { target: { value: " gutter repair " } });
    fireEvent.click(screen.getByRole("button", { name: "Weekly" }));
    fireEvent.click(screen.getByRole("button", { name: "Track keyword" }));
    await waitFor(() => expect((screen.getByLabelText("Keyword") as HTMLInputElement).value).toBe(""));
    const sent = (method: string) => fetch.mock.calls.filter(([, i]) => i?.method === method).map(([u, i]) => [u, i!.body ? JSON.parse(String(i!.body)) : null]);
    expect(sent("POST")).toEqual([["/api/rank/keywords", { own: true, keyword: "gutter repair", frequency: "weekly" }]]);

    fireEvent.click(screen.getByRole("button", { name: "Pause" }));
    await waitFor(() => expect(sent("PATCH")).toEqual([["/api/rank/keywords/kw-1", { paused: true }]]));

    fireEvent.click(screen.getByRole("button", { name: "Delete roof repair" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete keyword" });
    expect(sent("DELETE")).toEqual([]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(sent("DELETE")).toEqual([["/api/rank/keywords/kw-1", null]]));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });
});

describe("the charts", () => {
  it("break the sparkline at a failed check instead of drawing it at zero", () => {
    const k = keywordFixture([check("2026-11-20T06:00:00.000Z", 2, 5), check("2026-11-21T06:00:00.000Z", 4, 5), check("2026-11-22T06:00:00.000Z", "!", 5), check("2026-11-23T06:00:00.000Z", 3, 5), check("2026-11-24T06:00:00.000Z", 1, 5)]);
    render(<RankSparkline spark={k.spark} />);
    const svg = screen.getByRole("img");
    expect(svg.getAttribute("aria-label")).toBe("Map pack, last 5 checks: now #1, 1 failed (gaps)");
    const lines = svg.querySelectorAll("polyline");
    expect(lines).toHaveLength(2);
    expect(Array.from(lines, (l) => l.getAttribute("points")!.split(" ").length)).toEqual([2, 2]);
    expect(svg.querySelectorAll("circle")).toHaveLength(4);
    expect(svg.querySelectorAll("[data-failed]")).toHaveLength(1);
    // No point sits at the top or bottom edge for the failed check.
    expect(lineSegments([{ x: 0, y: 1 }, null, { x: 2, y: 3 }])).toEqual(["0.0,1.0", "2.0,3.0"]);
  });

  it("draw the history's two lines with rank 1 at the top, a miss on the bottom line and failed checks marked", () => {
    render(<RankHistoryChart checks={HISTORY} />);
    const map = Array.from(document.querySelectorAll(".rank-dot-map"), (c) => Number(c.getAttribute("cy")));
    const organic = Array.from(document.querySelectorAll(".rank-dot-organic"), (c) => Number(c.getAttribute("cy")));
    expect(map).toHaveLength(3);
    expect(organic).toHaveLength(3);
    // Inverted: #2 above #3 above #7; the organic miss (20+) lowest of all.
    expect(map[0]! < map[1]! && map[1]! < map[2]!).toBe(true);
    expect(Math.max(...organic)).toBe(organic[2]);
    expect(organic[2]! > map[2]!).toBe(true);
    expect(document.querySelectorAll(".rank-line-map")).toHaveLength(2);
    expect(document.querySelectorAll("[data-failed]")).toHaveLength(1);
    expect(document.querySelector("[data-failed] title")!.textContent).toBe("Nov 21, 2026: check failed");
  });
});

describe("a keyword's page", () => {
  it("shows the positions, the history chart and every check with its date, failed ones as such, and exports the CSV", async () => {
    const k = keywordFixture(HISTORY);
    const fetch = stubFetch((url) => {
      if (url === "/api/rank/keywords/kw-1") return json(k);
      if (url === "/api/rank/keywords/kw-1/export.csv") return new Response("Checked,Map pack,Organic\n", { headers: { "Content-Type": "text/csv" } });
      return notFound();
    });
    // Spies, not an assignment to URL: the next test (and the next file, in the same environment) get URL back whole.
    const created = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:csv");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    renderApp("/tools/local-rank-tracker/kw-1", owner());
    expect(await screen.findByRole("heading", { name: "“roof repair”" })).toBeTruthy();
    const now = screen.getByRole("list", { name: "Current positions" });
    expect(Array.from(now.querySelectorAll(".rank-metric-value"), (v) => v.textContent)).toEqual(["#7", "Not in the top 20"]);
    expect(screen.getByRole("img", { name: /Position history/ })).toBeTruthy();
    const rows = within(screen.getByRole("table", { name: "Every check" })).getAllByRole("row").slice(1).map((r) => Array.from(r.children, (c) => c.textContent));
    expect(rows.map((r) => r.slice(1))).toEqual([
      ["#7", "Not in the top 20"],
      ["#3", "#4"],
      ["Check failed (not counted)", "Check failed (not counted)"],
      ["#2", "#5"],
    ]);
    expect(rows.map((r) => r[0])).toEqual(HISTORY.map((c) => c.checkedAt).reverse().map((iso) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" }).format(new Date(iso))));
    fireEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(fetch.mock.calls.some(([u]) => u === "/api/rank/keywords/kw-1/export.csv")).toBe(true);
  });

  it("says when the keyword is not found", async () => {
    stubFetch(() => notFound());
    renderApp("/tools/local-rank-tracker/nope", owner());
    expect(await screen.findByRole("heading", { name: "Keyword not found" })).toBeTruthy();
  });
});

describe("the dashboard's rank cards", () => {
  it("show the last scan's SoLV and the keywords up and down, for a user with data", async () => {
    const scan = scanFixture([2, 5, 14, 3, 1, "x", 8, 2, 4]);
    const up = view(keywordFixture([check("2026-11-22T06:00:00.000Z", 6, 9), check("2026-11-23T06:00:00.000Z", 2, 9)]));
    const down = view(keywordFixture(HISTORY, { id: "kw-2" }));
    stubFetch((url) => {
      if (url === "/api/rank/grids?business=own") return json({ scans: [{ ...scan, points: undefined }] });
      if (url === "/api/rank/keywords?business=own") return json(list([up, down]));
      return notFound();
    });
    renderApp("/dashboard", owner());
    expect(await screen.findByText("Last scan: SoLV 44% for “roof repair”")).toBeTruthy();
    expect(await screen.findByText("Since the last check: 1 keyword up, 1 down")).toBeTruthy();
    expect(screen.getByText("Last scan: SoLV 44% for “roof repair”").closest("article")!.querySelector("h3")!.textContent).toBe("Local Search Grid");
    // The keyword that went from #3 to #7 is an alert on the dashboard, linking to its history; the one that rose is not.
    const alert = screen.getByText("A tracked keyword moved down").closest(".alert") as HTMLElement;
    expect(alert.querySelector("li")!.textContent).toBe(`“${down.keyword}”: dropped 3+ positions and left the top 3 on Google Maps (#3 → #7)`);
    expect(within(alert).getByRole("link").getAttribute("href")).toBe("/tools/local-rank-tracker/kw-2");
    expect(alert.querySelectorAll("li").length).toBe(1);
  });

  it("leave a paused keyword's alert off the dashboard", async () => {
    const down = view(keywordFixture(HISTORY, { id: "kw-2", paused: true }));
    stubFetch((url) => (url === "/api/rank/grids?business=own" ? json({ scans: [] }) : url === "/api/rank/keywords?business=own" ? json(list([down])) : notFound()));
    renderApp("/dashboard", owner());
    expect(await screen.findByText("Since the last check: 0 keywords up, 1 down")).toBeTruthy();
    expect(screen.queryByText(/tracked keywords? moved down/)).toBeNull();
  });

  it("show no figure for a user without data", async () => {
    stubFetch((url) => (url === "/api/rank/grids?business=own" ? json({ scans: [] }) : url === "/api/rank/keywords?business=own" ? json(list([])) : notFound()));
    renderApp("/dashboard", owner());
    await screen.findByRole("heading", { name: /Search Tools/ });
    // Every working tool has its card (the Citation Tracker, issue 27, made it 13).
    await waitFor(() => expect(document.querySelectorAll(".tool-card").length).toBe(TOOL_COUNT));
    expect(document.querySelector(".tool-card-figure")).toBeNull();
  });
});
