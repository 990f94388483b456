// What the rank API answers (issue 19): grid scans (the Local Search Grid) and tracked keywords (the Local Rank
// Tracker). Shared by the worker (which builds these) and the web (both tools, the shared grid page, the report's
// "Local visibility" section, the dashboard cards), so both sides read one shape. Failed searches are never "not
// ranked": they stay `failed` in every shape below and out of every figure.
import type { GridMetrics, MetricChange, PointResult, Competitor } from "./metrics";
import type { AlertReason, CheckFrequency, PositionChange } from "./tracker";

/** The business a scan or a tracked keyword is about: the user's own (Business Settings) or a prospect (admins). */
export type RankBusiness = {
  kind: "own" | "prospect";
  /** The prospect's id, or null for the user's own business. */
  prospectId: string | null;
  name: string;
  /** City, state: where the organic search is made. */
  area: string | null;
  /** The Google Maps listing the ranks are looked up by (from the audit's find step); null when not found yet. */
  placeId: string | null;
  latitude: number | null;
  longitude: number | null;
};

/** GET/POST /api/rank/grids?estimate=1: what a grid would cost before it runs. */
export type GridEstimate = {
  size: number;
  /** One map search per point. */
  searches: number;
  /** The meter's estimate, in dollars. */
  estimateUsd: number;
  /** What is left of the payer's allowance this month, in dollars; null when the payer has no monthly cap (admins). */
  allowanceLeftUsd: number | null;
  /** False when the estimate is over what is left: the run is refused (402 `allowance_exceeded`). */
  allowed: boolean;
};

export type GridPointView = {
  row: number;
  col: number;
  lat: number;
  lng: number;
  center: boolean;
  result: PointResult;
  /** The business's top-3 rivals at this point (names only), for the point's tooltip; empty until searched. */
  top3: string[];
  /** Plain words on why the search failed (shown on the point), when it did. */
  failedReason: string | null;
};

export type GridScanStatus = "queued" | "running" | "done";

/** One scan (GET /api/rank/grids/:id; POST answers it too). Polled while `status` is not `done`. */
export type GridScanView = {
  id: string;
  business: RankBusiness;
  keyword: string;
  size: number;
  radiusMiles: number;
  /** The map zoom each point was searched at (derived from the spacing). */
  zoom: number;
  status: GridScanStatus;
  createdAt: string;
  finishedAt: string | null;
  /** Row by row from the north-west corner (`size × size` points). */
  points: GridPointView[];
  metrics: GridMetrics;
  /** The competitors holding the top 3 across the grid, with how many points each wins. */
  competitors: Competitor[];
  /** The searches reserved for this scan and their estimated cost. */
  estimate: { searches: number; estimateUsd: number };
  /** The public, unguessable share page (`/shared/grids/:token`); null on the public view itself. */
  sharePath: string | null;
  /** The scan before this one of the same business and keyword, for side-by-side comparison; null for the first. */
  previous: { id: string; createdAt: string; metrics: GridMetrics } | null;
  /** Map underlay (`MAP_TILE_URL`'s `{z}/{x}/{y}` template) when configured; the grid never needs it. */
  mapTileUrl: string | null;
};

/** One row of a business's scan history (GET /api/rank/grids?business=own|<prospectId>&keyword=). */
export type GridScanSummary = Pick<GridScanView, "id" | "keyword" | "size" | "radiusMiles" | "status" | "createdAt" | "finishedAt" | "metrics">;

/** Two scans side by side (both GridScanViews are fetched; the change is computed with `compareScans`). */
export type GridComparison = { arp: MetricChange; atrp: MetricChange; solv: MetricChange };

/** One check of a tracked keyword: map pack and organic, each found / not in the top 20 / failed. */
export type KeywordCheckView = {
  checkedAt: string;
  map: PointResult;
  organic: PointResult;
};

/** One tracked keyword in the list (GET /api/rank/keywords?business=). */
export type TrackedKeywordView = {
  id: string;
  business: RankBusiness;
  keyword: string;
  frequency: CheckFrequency;
  paused: boolean;
  createdAt: string;
  /** When its last check ran; null before the first. */
  lastCheckAt: string | null;
  /** When the cron will check it next; null while paused. */
  nextCheckAt: string | null;
  /** The latest completed check of each (failed checks are gaps: skipped, never zeros). */
  map: { current: PointResult | null; sinceLast: PositionChange; sinceFirst: PositionChange };
  organic: { current: PointResult | null; sinceLast: PositionChange; sinceFirst: PositionChange };
  /** The last 30 checks' map-pack positions for the sparkline, oldest first: null for a failed check or a miss. */
  spark: Array<{ checkedAt: string; rank: number | null; failed: boolean }>;
  /** Why the latest check is an alert (a drop of 3+ positions, or leaving the top 3), if it is. */
  alerts: AlertReason[];
};

/** GET /api/rank/keywords?business=: the list and the plan's limit on tracked keywords. */
export type TrackedKeywordList = {
  keywords: TrackedKeywordView[];
  /** How many keywords this user may track (by plan); null for admins (no limit). */
  limit: number | null;
  used: number;
};

/** GET /api/rank/keywords/:id: one keyword with its whole history, oldest first. */
export type TrackedKeywordDetail = TrackedKeywordView & { checks: KeywordCheckView[] };

/** Tracked keywords per plan (admins: no limit). */
export const TRACKED_KEYWORD_LIMITS = { free: 3, selfService: 25 } as const;

/** Kept so the report's "Local visibility" section and the dashboard read the same thing. */
export type LocalVisibility = Pick<GridScanView, "keyword" | "size" | "radiusMiles" | "createdAt" | "points" | "metrics" | "competitors" | "business">;
