// Rank fixtures for the screens' tests, built with the real rules (gridMetrics, changeSinceLast/First, latestAlert) so a
// fixture is what the server could answer.
import { gridMetrics, type PointResult } from "../../worker/features/rank/rules/metrics";
import { changeSinceFirst, changeSinceLast, latestAlert } from "../../worker/features/rank/rules/tracker";
import type { GridPointView, GridScanView, KeywordCheckView, RankBusiness, TrackedKeywordDetail } from "../../worker/features/rank/rules/view";

export const OWN_BUSINESS: RankBusiness = {
  kind: "own",
  prospectId: null,
  name: "Ridge Roofing",
  area: "Austin, TX",
  placeId: "place-own",
  latitude: 30.27,
  longitude: -97.74,
};

const found = (rank: number): PointResult => ({ status: "found", rank });
/** Shorthand for a point: a rank, "x" not in the top 20, "!" failed, "." pending. */
export function result(code: number | "x" | "!" | "."): PointResult {
  if (code === "x") return { status: "not_found" };
  if (code === "!") return { status: "failed" };
  if (code === ".") return { status: "pending" };
  return found(code);
}

/** A scan whose points (row by row) are given by `codes`. */
export function scanFixture(codes: Array<number | "x" | "!" | ".">, over: Partial<GridScanView> = {}): GridScanView {
  const size = Math.round(Math.sqrt(codes.length));
  const mid = Math.floor(size / 2);
  const points: GridPointView[] = codes.map((code, i) => {
    const row = Math.floor(i / size);
    const col = i % size;
    const r = result(code);
    return {
      row,
      col,
      lat: 30.27 + (mid - row) * 0.01,
      lng: -97.74 + (col - mid) * 0.01,
      center: row === mid && col === mid,
      result: r,
      top3: r.status === "found" || r.status === "not_found" ? ["Capitol Roofing", "Lone Star Roofs"] : [],
      failedReason: r.status === "failed" ? "The search timed out" : null,
    };
  });
  const pending = codes.includes(".");
  return {
    id: "scan-1",
    business: OWN_BUSINESS,
    keyword: "roof repair",
    size,
    radiusMiles: 2,
    zoom: 13,
    status: pending ? "running" : "done",
    createdAt: "2026-11-20T15:00:00.000Z",
    finishedAt: pending ? null : "2026-11-20T15:01:00.000Z",
    points,
    metrics: gridMetrics(points.map((p) => p.result)),
    competitors: [{ placeId: "place-capitol", title: "Capitol Roofing", top3Points: 6, firstPoints: 4 }],
    estimate: { searches: codes.length, estimateUsd: codes.length * 0.01 },
    sharePath: "/shared/grids/tok-abc",
    previous: null,
    mapTileUrl: null,
    ...over,
  };
}

export const check = (checkedAt: string, map: number | "x" | "!", organic: number | "x" | "!"): KeywordCheckView => ({ checkedAt, map: result(map), organic: result(organic) });

/** A tracked keyword with the given checks (oldest first); its figures follow from them. */
export function keywordFixture(checks: KeywordCheckView[], over: Partial<TrackedKeywordDetail> = {}): TrackedKeywordDetail {
  const side = (pick: "map" | "organic") => {
    const list = checks.map((c) => ({ checkedAt: c.checkedAt, result: c[pick] }));
    const done = list.filter((c) => c.result.status === "found" || c.result.status === "not_found");
    return { current: done.at(-1)?.result ?? null, sinceLast: changeSinceLast(list), sinceFirst: changeSinceFirst(list) };
  };
  return {
    id: "kw-1",
    business: OWN_BUSINESS,
    keyword: "roof repair",
    frequency: "daily",
    paused: false,
    createdAt: checks[0]?.checkedAt ?? "2026-11-01T00:00:00.000Z",
    lastCheckAt: checks.at(-1)?.checkedAt ?? null,
    nextCheckAt: checks.length ? "2026-11-26T06:00:00.000Z" : null,
    map: side("map"),
    organic: side("organic"),
    spark: checks.map((c) => ({ checkedAt: c.checkedAt, rank: c.map.status === "found" ? c.map.rank : null, failed: c.map.status === "failed" })),
    alerts: latestAlert(checks.map((c) => ({ checkedAt: c.checkedAt, result: c.map }))),
    checks,
    ...over,
  };
}
