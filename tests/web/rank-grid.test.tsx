// The Local Search Grid's screens with a stubbed API: the estimate before a run and the refusal past the allowance,
// the heat map (bands, centre, a failed point never "not ranked") filling in while polled, the metric cards' tooltips,
// two scans compared, the public shared page and the report's "Local visibility" section.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RankHeatMap, underlayTiles } from "../../web/features/rank/rank-heat-map";
import { GridMetricCards, LocalVisibilitySection, ScanChangeTable } from "../../web/features/rank/rank-figures";
import { SharedReportView } from "../../web/features/reports/shared-report-view";
import { METRIC_TOOLTIPS } from "../../worker/features/rank/rules/metrics";
import type { GridEstimate, GridScanSummary, GridScanView, LocalVisibility } from "../../worker/features/rank/rules/view";
import type { SharedReportResponse } from "../../worker/features/reports/rules/view";
import { json, notFound, renderApp, signedIn, stubFetch } from "./helpers";
import { scanFixture } from "./rank-fixtures";

afterEach(() => vi.useRealTimers());

const summary = (s: GridScanView): GridScanSummary => ({
  id: s.id,
  keyword: s.keyword,
  size: s.size,
  radiusMiles: s.radiusMiles,
  status: s.status,
  createdAt: s.createdAt,
  finishedAt: s.finishedAt,
  metrics: s.metrics,
});

function owner() {
  const auth = signedIn();
  auth.profile = { ...auth.profile!, company_name: "Ridge Roofing", company_location: "Austin, TX" };
  return auth;
}

const estimate = (over: Partial<GridEstimate> = {}): GridEstimate => ({ size: 3, searches: 9, estimateUsd: 0.09, allowanceLeftUsd: 0.91, allowed: true, ...over });

const bodies = (fetch: ReturnType<typeof stubFetch>, url: string) =>
  fetch.mock.calls.filter(([u, init]) => u === url && init?.method === "POST").map(([, init]) => JSON.parse(String(init!.body)));

const bands = () => Array.from(document.querySelectorAll<SVGGElement>(".rank-point"), (g) => g.dataset.band);

describe("the Local Search Grid tool", () => {
  it("shows the searches and their cost before the run, and refuses a run past the allowance", async () => {
    const fetch = stubFetch((url) => {
      if (url === "/api/rank/grids?business=own") return json({ scans: [] });
      if (url === "/api/rank/grids?estimate=1&size=5") return json(estimate({ size: 5, searches: 25, estimateUsd: 0.25, allowanceLeftUsd: 0.1, allowed: false }));
      if (url === "/api/rank/grids?estimate=1&size=3") return json(estimate());
      return notFound();
    });
    renderApp("/tools/local-search-grid", owner());
    expect(await screen.findByRole("heading", { level: 1, name: "Local Search Grid" })).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "No scans yet" })).toBeTruthy();
    const run = screen.getByRole("button", { name: "Run the grid" }) as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    // The cost is shown before anything is typed: it depends on the grid's size.
    expect(await screen.findByText("25 map searches · about $0.25 · $0.10 left of this month's allowance")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Keyword"), { target: { value: "roof repair" } });
    expect(screen.getByText(/This grid needs about \$0.25 of searches and \$0.10 is left this/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "upgrade your plan" }).getAttribute("href")).toBe("/subscription");
    expect(run.disabled).toBe(true);
    fireEvent.click(run);
    expect(bodies(fetch, "/api/rank/grids")).toEqual([]);
    // A smaller grid fits: its cost is asked for, and the run is allowed.
    fireEvent.click(screen.getByRole("button", { name: "3×3" }));
    expect(await screen.findByText("9 map searches · about $0.09 · $0.91 left of this month's allowance")).toBeTruthy();
    expect(screen.queryByText("Over this month's allowance")).toBeNull();
    expect(run.disabled).toBe(false);
    // A radius out of range says so and asks for no estimate.
    fireEvent.change(screen.getByLabelText("Radius (miles)"), { target: { value: "30" } });
    expect(await screen.findByText("Choose a radius between 0.5 and 25 miles.")).toBeTruthy();
    expect(run.disabled).toBe(true);
  });

  it("runs a 3×3 grid and fills the heat map in point by point while it polls, then stops", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const steps = [
      scanFixture([".", ".", ".", ".", ".", ".", ".", ".", "."], { id: "g-1" }),
      scanFixture([2, 5, ".", "!", 1, ".", ".", ".", "."], { id: "g-1" }),
      scanFixture([2, 5, 14, 3, 1, "x", 8, 2, 4], { id: "g-1" }),
    ];
    const answers = steps.slice(1);
    let scans: GridScanSummary[] = [];
    const fetch = stubFetch((url, init) => {
      if (url === "/api/rank/grids?business=own") return json({ scans });
      if (url.startsWith("/api/rank/grids?estimate=1&size=")) return json(estimate());
      if (url === "/api/rank/grids" && init.method === "POST") {
        scans = [summary(steps[0]!)];
        return json(steps[0]);
      }
      if (url === "/api/rank/grids/g-1") return json(answers.length > 1 ? answers.shift() : answers[0]);
      return notFound();
    });
    renderApp("/tools/local-search-grid", owner());
    await screen.findByRole("heading", { name: "No scans yet" });
    fireEvent.click(screen.getByRole("button", { name: "3×3" }));
    fireEvent.change(screen.getByLabelText("Keyword"), { target: { value: "roof repair" } });
    expect(await screen.findByText("9 map searches · about $0.09 · $0.91 left of this month's allowance")).toBeTruthy();
    await waitFor(() => expect((screen.getByRole("button", { name: "Run the grid" }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole("button", { name: "Run the grid" }));
    expect(await screen.findByText(/Searching point by point: 0 of 9 done/)).toBeTruthy();
    expect(bands()).toEqual(Array(9).fill("pending"));
    expect(bodies(fetch, "/api/rank/grids")).toEqual([{ own: true, keyword: "roof repair", size: 3, radiusMiles: 2 }]);

    await act(async () => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(screen.getByText(/Searching point by point: 4 of 9 done/)).toBeTruthy());
    expect(bands()).toEqual(["top3", "top10", "pending", "failed", "top3", "pending", "pending", "pending", "pending"]);
    // While the scan runs, a failed point is being retried — and it is never "not ranked".
    expect(screen.getByRole("img", { name: "Row 2, column 1: Search failed — retrying" })).toBeTruthy();

    await act(async () => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(screen.queryByText(/Searching point by point/)).toBeNull());
    expect(bands()).toEqual(["top3", "top10", "top20", "top3", "top3", "not_found", "top10", "top3", "top10"]);
    const polls = () => fetch.mock.calls.filter(([u]) => u === "/api/rank/grids/g-1").length;
    const settled = polls();
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(polls()).toBe(settled);
    // Done: the figures, the export and the share link.
    const metrics = screen.getByRole("list", { name: "Grid metrics" });
    expect(within(metrics).getByText("SoLV").closest("li")!.querySelector(".rank-metric-value")!.textContent).toBe("44%");
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy share link" })).toBeTruthy();
  });

  it("compares two scans of the same keyword side by side with the change in each metric", async () => {
    const before = scanFixture([8, 12, "x", 5, 4, "x", "x", 15, 9], { id: "g-old", createdAt: "2026-11-01T15:00:00.000Z" });
    const after = scanFixture([2, 5, 14, 3, 1, "x", 8, 2, 4], { id: "g-new", previous: { id: "g-old", createdAt: before.createdAt, metrics: before.metrics } });
    stubFetch((url) => {
      if (url === "/api/rank/grids?business=own") return json({ scans: [summary(before), summary(after)] });
      if (url === "/api/rank/grids/g-new") return json(after);
      if (url === "/api/rank/grids/g-old") return json(before);
      return notFound();
    });
    renderApp("/tools/local-search-grid", owner());
    fireEvent.click(await screen.findByRole("button", { name: "Compare with the scan of November 1, 2026" }));
    const compare = await screen.findByRole("region", { name: "Two scans side by side" });
    expect(within(compare).getAllByRole("group")).toHaveLength(2);
    const rows = within(within(compare).getByRole("table")).getAllByRole("row").map((r) => Array.from(r.children, (c) => c.textContent));
    expect(rows.slice(1)).toEqual([
      ["ARP", "8.8", "4.9", "−4.0 (better)"],
      ["ATRP", "12.9", "6.7", "−6.2 (better)"],
      ["SoLV", "0%", "44%", "+44 pts (better)"],
    ]);
    // The history lists both scans, the shown one marked.
    expect(within(screen.getByRole("region", { name: "Past scans" })).getByText("Shown")).toBeTruthy();
  });

  it("says why a user without business details cannot run one", async () => {
    stubFetch(() => notFound());
    renderApp("/tools/local-search-grid", signedIn());
    expect(await screen.findByText("Your business details are needed")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Run the grid" })).toBeNull();
  });

  it("shows a retry when the scans cannot be loaded", async () => {
    stubFetch((url) => (url.startsWith("/api/rank/grids?business") ? json({ error: { code: "internal", message: "boom" } }, 500) : notFound()));
    renderApp("/tools/local-search-grid", owner());
    expect(await screen.findByText("Could not load the scans.", {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe("the heat map", () => {
  it("colours each point by band with its rank, rings the centre and never calls a failed search unranked", () => {
    const scan = scanFixture([1, 4, 11, "x", 3, "!", ".", 20, 2]);
    render(<RankHeatMap points={scan.points} size={3} label="Grid" />);
    expect(bands()).toEqual(["top3", "top10", "top20", "not_found", "top3", "failed", "pending", "top20", "top3"]);
    const marks = Array.from(document.querySelectorAll(".rank-point text"), (t) => t.textContent);
    expect(marks).toEqual(["1", "4", "11", "20+", "3", "!", "", "20", "2"]);
    const centre = document.querySelectorAll("[data-centre]");
    expect(centre).toHaveLength(1);
    expect(centre[0]!.getAttribute("aria-label")).toMatch(/^Centre: rank 3/);
    expect(centre[0]!.querySelector(".rank-centre-ring")).not.toBeNull();
    // A finished scan's failed point: failed and not counted, with the reason; never "not in the top 20".
    const failed = screen.getByRole("img", { name: /^Row 2, column 3:/ });
    expect(failed.getAttribute("aria-label")).toBe("Row 2, column 3: Search failed (The search timed out) — not counted");
    expect(failed.querySelector("title")!.textContent).toBe(failed.getAttribute("aria-label"));
    expect(screen.getByRole("img", { name: /^Row 2, column 1:/ }).getAttribute("aria-label")).toMatch(/not in the top 20\. Top 3 here: Capitol Roofing/);
    expect(within(screen.getByRole("list", { name: "Legend" })).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "1–3",
      "4–10",
      "11–20",
      "Not in the top 20",
      "Search failed",
      "Not searched yet",
      "Centre",
    ]);
    // No underlay without a tile URL.
    expect(document.querySelector("image")).toBeNull();
  });

  it("draws map tiles under the grid only when a tile URL is set", () => {
    const scan = scanFixture([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const tiles = underlayTiles(scan.points, 3, "https://tiles.test/{z}/{x}/{y}.png");
    expect(tiles.length).toBeGreaterThan(0);
    for (const t of tiles) expect(t.href).toMatch(/^https:\/\/tiles\.test\/\d+\/\d+\/\d+\.png$/);
    render(<RankHeatMap points={scan.points} size={3} label="Grid" mapTileUrl="https://tiles.test/{z}/{x}/{y}.png" />);
    expect(document.querySelectorAll("image")).toHaveLength(tiles.length);
  });
});

describe("the metric cards", () => {
  it("show ARP, ATRP and SoLV, each with Local Falcon's definition as its tooltip", () => {
    const scan = scanFixture([2, 5, 14, 3, 1, "x", 8, 2, "!"]);
    render(<GridMetricCards metrics={scan.metrics} />);
    const cards = within(screen.getByRole("list", { name: "Grid metrics" })).getAllByRole("listitem");
    expect(cards.map((c) => c.querySelector(".rank-metric-value")!.textContent)).toEqual(["5.0", "7.0", "50%"]);
    for (const [key, name] of [["arp", "ARP"], ["atrp", "ATRP"], ["solv", "SoLV"]] as const) {
      const button = screen.getByRole("button", { name: `About ${name}` });
      const tip = document.getElementById(button.getAttribute("aria-describedby")!)!;
      expect(tip.getAttribute("role")).toBe("tooltip");
      expect(tip.textContent).toBe(METRIC_TOOLTIPS[key]);
      expect(tip.textContent).toContain("Local Falcon");
    }
  });

  it("show a dash, not a zero, before any point is searched; a change is judged per metric", () => {
    const pending = scanFixture(Array(9).fill("."));
    render(<GridMetricCards metrics={pending.metrics} />);
    expect(Array.from(document.querySelectorAll(".rank-metric-value"), (v) => v.textContent)).toEqual(["—", "—", "—"]);
    const a = scanFixture([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    const b = scanFixture([1, 1, 1, 1, 1, 1, 1, 1, 1], { createdAt: "2026-11-21T15:00:00.000Z" });
    render(<ScanChangeTable before={a} after={b} />);
    expect(screen.getAllByText("±0.0", { exact: false }).length).toBe(2);
  });
});

describe("the shared grid page", () => {
  it("shows the heat map, the figures and the rivals to a signed-out visitor, without a token", async () => {
    const scan = scanFixture([2, 5, 14, 3, 1, "x", 8, 2, 4], { sharePath: null });
    const fetch = stubFetch((url) => (url === "/api/shared/grids/tok-abc" ? json(scan) : notFound()));
    renderApp("/shared/grids/tok-abc", signedIn());
    expect(await screen.findByRole("heading", { level: 1, name: "Ridge Roofing" })).toBeTruthy();
    expect(screen.getByRole("group", { name: /Where Ridge Roofing ranks for "roof repair"/ })).toBeTruthy();
    expect(screen.getByRole("list", { name: "Grid metrics" })).toBeTruthy();
    expect(screen.getByText("Capitol Roofing")).toBeTruthy();
    const [, init] = fetch.mock.calls.find(([u]) => u === "/api/shared/grids/tok-abc")!;
    expect(new Headers(init!.headers).get("Authorization")).toBeNull();
    expect(screen.queryByRole("button", { name: "Copy share link" })).toBeNull();
  });

  it("says when the scan is not found", async () => {
    stubFetch(() => notFound());
    renderApp("/shared/grids/nope", signedIn());
    expect(await screen.findByRole("heading", { name: "Scan Not Found" })).toBeTruthy();
  });
});

describe("the report's Local visibility", () => {
  const visibility = (): LocalVisibility => {
    const { keyword, size, radiusMiles, createdAt, points, metrics, competitors, business } = scanFixture([2, 5, 14, 3, 1, "x", 8, 2, "!"]);
    return { keyword, size, radiusMiles, createdAt, points, metrics, competitors, business };
  };

  it("renders the latest grid with its figures, server-side as the shared report is", () => {
    const html = renderToStaticMarkup(<LocalVisibilitySection visibility={visibility()} />);
    document.body.innerHTML = html;
    const section = screen.getByRole("region", { name: "Local visibility" });
    expect(within(section).getByText('"roof repair" · 3×3 grid · 2 mi radius · November 20, 2026')).toBeTruthy();
    expect(section.querySelectorAll(".rank-point")).toHaveLength(9);
    expect(within(section).getByRole("img", { name: /^Row 3, column 3: Search failed/ })).toBeTruthy();
    expect(within(section).getByRole("list", { name: "Grid metrics" })).toBeTruthy();
  });

  it("is in the shared report when the payload has it, and absent when it is null", () => {
    const data = {
      report: { id: "r1", status: "generating", created_at: "2026-11-20T00:00:00Z", generated_at: null, content: null },
      prospect: { name: "Ridge Roofing", company_name: "", keyword: "roof repair", area: "Austin, TX", description: "" },
      sender: null,
      audit: null,
    } as unknown as SharedReportResponse;
    expect(renderToStaticMarkup(<SharedReportView data={{ ...data, localVisibility: visibility() }} />)).toContain("Local visibility");
    expect(renderToStaticMarkup(<SharedReportView data={{ ...data, localVisibility: null }} />)).not.toContain("Local visibility");
  });
});
