// The rank API's answers (worker/features/rank/rules/view.ts) built from rows: a scan with its points, metrics and
// competitors; a tracked keyword with its checks, changes, sparkline and alerts. A failed search is `failed` here,
// never "not ranked", and stays out of every figure.
import type { GridPointRow, GridScanRow, KeywordCheckRow, TrackedKeywordRow } from "./queries";
import { gridMetrics, topCompetitors, type LocalResult, type PointResult } from "./rules/metrics";
import { changeSinceFirst, changeSinceLast, FREQUENCY_MS, latestAlert, type PositionChange, type RankCheck } from "./rules/tracker";
import type { GridScanSummary, GridScanView, KeywordCheckView, LocalVisibility, RankBusiness, TrackedKeywordDetail, TrackedKeywordView } from "./rules/view";
import { searchesFor } from "./rules/grid";
import { fromMicro } from "../../domain/metering";
import { parseJson } from "../../domain/json";

export function businessOf(json: string): RankBusiness {
  return parseJson<RankBusiness>(json) ?? { kind: "own", prospectId: null, name: "", area: null, placeId: null, latitude: null, longitude: null };
}

export function pointResult(p: Pick<GridPointRow, "status" | "rank">): PointResult {
  switch (p.status) {
    case "done":
      return p.rank === null ? { status: "not_found" } : { status: "found", rank: p.rank };
    case "failed":
    case "retrying":
      return { status: "failed" };
    default:
      return { status: "pending" };
  }
}

function top3Of(p: GridPointRow): LocalResult[] | null {
  return p.status === "done" ? (parseJson<LocalResult[]>(p.top3) ?? []) : null;
}

function pointsOf(scan: GridScanRow, points: GridPointRow[], placeId: string): GridScanView["points"] {
  const half = (scan.size - 1) / 2;
  return points.map((p) => ({
    row: p.row,
    col: p.col,
    lat: p.lat,
    lng: p.lng,
    center: p.row === half && p.col === half,
    result: pointResult(p),
    top3: (top3Of(p) ?? [])
      .filter((l) => l.place_id !== placeId)
      .slice(0, 3)
      .map((l) => l.title ?? ""),
    failedReason: p.status === "failed" || p.status === "retrying" ? p.reason : null,
  }));
}

export function scanMetrics(points: Pick<GridPointRow, "status" | "rank">[]) {
  return gridMetrics(points.map(pointResult));
}

export function gridScanSummary(scan: GridScanRow, points: Pick<GridPointRow, "status" | "rank">[]): GridScanSummary {
  return {
    id: scan.id,
    keyword: scan.keyword,
    size: scan.size,
    radiusMiles: scan.radiusMiles,
    status: scan.status,
    createdAt: scan.createdAt,
    finishedAt: scan.finishedAt,
    metrics: scanMetrics(points),
  };
}

export function buildGridScanView(
  scan: GridScanRow,
  points: GridPointRow[],
  opts: { previous: { scan: GridScanRow; points: Pick<GridPointRow, "status" | "rank">[] } | null; mapTileUrl: string | null; publicView: boolean },
): GridScanView {
  const business = businessOf(scan.business);
  const placeId = business.placeId ?? "";
  return {
    id: scan.id,
    business: opts.publicView ? { ...business, prospectId: null } : business,
    keyword: scan.keyword,
    size: scan.size,
    radiusMiles: scan.radiusMiles,
    zoom: scan.zoom,
    status: scan.status,
    createdAt: scan.createdAt,
    finishedAt: scan.finishedAt,
    points: pointsOf(scan, points, placeId),
    metrics: scanMetrics(points),
    competitors: topCompetitors(points.map(top3Of), placeId),
    estimate: { searches: scan.estimateSearches || searchesFor(scan.size), estimateUsd: fromMicro(scan.estimateMicro) },
    sharePath: opts.publicView ? null : `/shared/grids/${scan.shareToken}`,
    previous: opts.previous ? { id: opts.previous.scan.id, createdAt: opts.previous.scan.createdAt, metrics: scanMetrics(opts.previous.points) } : null,
    mapTileUrl: opts.mapTileUrl,
  };
}

export function localVisibilityOf(view: GridScanView): LocalVisibility {
  const { keyword, size, radiusMiles, createdAt, points, metrics, competitors, business } = view;
  return { keyword, size, radiusMiles, createdAt, points, metrics, competitors, business: { ...business, prospectId: null } };
}

// ——— tracked keywords ———

function partResult(check: KeywordCheckRow, part: "map" | "organic"): PointResult {
  const status = part === "map" ? check.mapStatus : check.organicStatus;
  const rank = part === "map" ? check.mapRank : check.organicRank;
  if (status === "found" && rank !== null) return { status: "found", rank };
  if (status === "not_found") return { status: "not_found" };
  if (status === "failed" || check.status === "failed" || check.status === "retrying") return { status: "failed" };
  return { status: "pending" };
}

function checkedAtOf(check: KeywordCheckRow): string {
  return check.checkedAt ?? check.createdAt;
}

export function checkView(check: KeywordCheckRow): KeywordCheckView {
  return { checkedAt: checkedAtOf(check), map: partResult(check, "map"), organic: partResult(check, "organic") };
}

function series(checks: KeywordCheckRow[], part: "map" | "organic"): RankCheck[] {
  return checks.map((c) => ({ checkedAt: checkedAtOf(c), result: partResult(c, part) }));
}

function current(list: RankCheck[]): PointResult | null {
  return [...list].reverse().find((c) => c.result.status === "found" || c.result.status === "not_found")?.result ?? null;
}

/** A keyword's map-pack position now and its latest change, from its checks oldest first (the clients view's figures). */
export function mapMovement(checks: KeywordCheckRow[]): { current: PointResult | null; sinceLast: PositionChange } {
  const map = series(checks, "map");
  return { current: current(map), sinceLast: changeSinceLast(map) };
}

/** One keyword as the list shows it; `checks` are its checks, oldest first. */
export function buildTrackedKeywordView(keyword: TrackedKeywordRow, checks: KeywordCheckRow[]): TrackedKeywordView {
  const map = series(checks, "map");
  const organic = series(checks, "organic");
  const last = keyword.lastCheckAt ? Date.parse(keyword.lastCheckAt) : NaN;
  return {
    id: keyword.id,
    business: businessOf(keyword.business),
    keyword: keyword.keyword,
    frequency: keyword.frequency,
    paused: keyword.paused,
    createdAt: keyword.createdAt,
    lastCheckAt: keyword.lastCheckAt,
    nextCheckAt: keyword.paused ? null : Number.isNaN(last) ? new Date().toISOString() : new Date(last + FREQUENCY_MS[keyword.frequency]).toISOString(),
    map: { current: current(map), sinceLast: changeSinceLast(map), sinceFirst: changeSinceFirst(map) },
    organic: { current: current(organic), sinceLast: changeSinceLast(organic), sinceFirst: changeSinceFirst(organic) },
    spark: map
      .filter((c) => c.result.status !== "pending")
      .slice(-30)
      .map((c) => ({ checkedAt: c.checkedAt, rank: c.result.status === "found" ? c.result.rank : null, failed: c.result.status === "failed" })),
    alerts: latestAlert(map),
  };
}

export function buildTrackedKeywordDetail(keyword: TrackedKeywordRow, checks: KeywordCheckRow[]): TrackedKeywordDetail {
  return { ...buildTrackedKeywordView(keyword, checks), checks: checks.map(checkView) };
}
