// Rank results and what is derived from them (issue 19): a business's rank in a map or organic search, the grid's
// metrics with Local Falcon's definitions, heat-map bands, scan comparison, competitors and the scan CSV. A failed
// search is never "not ranked": it is left out of every figure. (The tracker's rules are in rank-tracker.ts.)
import { z } from "zod";
import { toCsv } from "../../../domain/csv";

export const RANK_KEYWORD_MESSAGE = "Please enter a keyword.";
export const RANK_BUSINESS_MESSAGE = "Choose your own business or one prospect, not both.";

/**
 * What both rank tools' requests start with: the business (the user's own, `own: true`, or a prospect,
 * `prospectId`, which the route allows admins only) and the keyword. Exactly one business: see `oneRankBusiness`.
 */
export const RankTargetFields = {
  own: z.literal(true).optional(),
  prospectId: z.string().trim().min(1).max(100).optional(),
  keyword: z.string({ error: RANK_KEYWORD_MESSAGE }).trim().min(1, RANK_KEYWORD_MESSAGE).max(200, "The keyword is too long (200 characters at most)."),
};

export function oneRankBusiness(target: { own?: true; prospectId?: string }): boolean {
  return (target.own === true) !== (target.prospectId !== undefined);
}
export const ONE_RANK_BUSINESS = { message: RANK_BUSINESS_MESSAGE, path: ["prospectId"] };

/** The map pack positions that count (SerpAPI google_maps pages hold 20). */
export const MAX_RANK = 20;
/** A completed search where the business is not in the top 20 counts as this in ATRP (Local Falcon). */
export const MISS_RANK = MAX_RANK + 1;

export type PointResult =
  | { status: "found"; rank: number }
  | { status: "not_found" }
  | { status: "failed" }
  | { status: "pending" };
export type CompletedResult = Extract<PointResult, { status: "found" | "not_found" }>;

export function isCompleted(result: PointResult): result is CompletedResult {
  return result.status === "found" || result.status === "not_found";
}

/** One listing of SerpAPI's `local_results`, as much of it as the rules read. */
/** A listing in a map search as a grid point keeps it (`reviews`: its Google review count, kept since issue 28 for the reviews page). */
export type LocalResult = { position?: number; place_id?: string; title?: string; reviews?: number };

/** A listing's position: the provider's when it gives a usable one, else its place in the list. */
function listingPosition(position: number | undefined, index: number): number {
  return position !== undefined && Number.isInteger(position) && position >= 1 ? position : index + 1;
}

function rankAt(position: number | undefined, index: number): CompletedResult {
  if (index === -1) return { status: "not_found" };
  const rank = listingPosition(position, index);
  return rank <= MAX_RANK ? { status: "found", rank } : { status: "not_found" };
}

/** The business's place in one map search: by place id only (names and addresses are not unique), positions 1–20. */
export function findRank(localResults: ReadonlyArray<LocalResult>, placeId: string): CompletedResult {
  if (placeId === "") return { status: "not_found" };
  const index = localResults.findIndex((r) => r.place_id === placeId);
  return rankAt(localResults[index]?.position, index);
}

/** One of SerpAPI's `organic_results`, as much of it as the rules read. */
export type OrganicResult = { position?: number; link?: string };

function hostOf(urlOrHost: string): string | null {
  const text = urlOrHost.trim().toLowerCase();
  if (text === "") return null;
  try {
    return new URL(text.includes("://") ? text : `https://${text}`).hostname.replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** The business's organic position: the first result on its website's host (or a subdomain of it), positions 1–20. */
export function findOrganicRank(organicResults: ReadonlyArray<OrganicResult>, website: string): CompletedResult {
  const host = hostOf(website);
  if (host === null) return { status: "not_found" };
  const index = organicResults.findIndex((r) => {
    const h = r.link ? hostOf(r.link) : null;
    return h !== null && (h === host || h.endsWith(`.${host}`));
  });
  return rankAt(organicResults[index]?.position, index);
}

export type GridMetrics = {
  /** Average rank where found in the top 20; null when found nowhere. */
  arp: number | null;
  /** Average over every completed point, a miss counting as 21; null before any point completed. */
  atrp: number | null;
  /** Percentage (0–100) of completed points in the top 3; null before any point completed. */
  solv: number | null;
  found: number;
  notFound: number;
  failed: number;
  pending: number;
};

/** Tooltips: each metric says whose definition it is. */
export const METRIC_TOOLTIPS = {
  arp: "ARP (Average Rank Position), as Local Falcon defines it: the average of the business's positions at the points where it was found in the top 20. Failed searches are not counted.",
  atrp: "ATRP (Average Total Rank Position), as Local Falcon defines it: the average position over every point searched, counting a point where the business is not in the top 20 as 21. Failed searches are not counted.",
  solv: "SoLV (Share of Local Voice), as Local Falcon defines it: the percentage of points searched where the business is in the top 3 of the map pack. Failed searches are not counted.",
} as const;

function average(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** ARP, ATRP and SoLV over the completed points; failed and pending points are counted apart, never in a metric. */
export function gridMetrics(points: ReadonlyArray<PointResult>): GridMetrics {
  const ranks: number[] = [];
  let notFound = 0;
  let failed = 0;
  let pending = 0;
  for (const point of points) {
    if (point.status === "found") ranks.push(point.rank);
    else if (point.status === "not_found") notFound++;
    else if (point.status === "failed") failed++;
    else pending++;
  }
  const completed = ranks.length + notFound;
  return {
    arp: average(ranks),
    atrp: completed === 0 ? null : (ranks.reduce((s, r) => s + r, 0) + notFound * MISS_RANK) / completed,
    solv: completed === 0 ? null : (ranks.filter((r) => r <= 3).length / completed) * 100,
    found: ranks.length,
    notFound,
    failed,
    pending,
  };
}

export type RankBand = "top3" | "top10" | "top20" | "not_found" | "failed" | "pending";

/** The heat map's colour band. */
export function rankBand(result: PointResult): RankBand {
  if (result.status !== "found") return result.status;
  if (result.rank <= 3) return "top3";
  if (result.rank <= 10) return "top10";
  return "top20";
}

export type MetricChange = {
  before: number | null;
  after: number | null;
  /** after − before; null when either side has no figure. */
  delta: number | null;
  /** Lower is better for ARP and ATRP, higher for SoLV; null when there is no change to judge. */
  improved: boolean | null;
};

function change(before: number | null, after: number | null, lowerIsBetter: boolean): MetricChange {
  const delta = before === null || after === null ? null : after - before;
  return { before, after, delta, improved: delta === null || delta === 0 ? null : lowerIsBetter ? delta < 0 : delta > 0 };
}

/** Two scans side by side: `before` is the earlier scan. */
export function compareScans(before: GridMetrics, after: GridMetrics): { arp: MetricChange; atrp: MetricChange; solv: MetricChange } {
  return {
    arp: change(before.arp, after.arp, true),
    atrp: change(before.atrp, after.atrp, true),
    solv: change(before.solv, after.solv, false),
  };
}

export type Competitor = {
  placeId: string;
  title: string;
  /** Points where it is in the top 3. */
  top3Points: number;
  /** Points where it is first. */
  firstPoints: number;
};

/**
 * The competitors holding the top 3 across the grid: for each completed point's `local_results` (null for a point
 * that failed or is pending), every listing in positions 1–3 other than the business itself; most points first.
 */
export function topCompetitors(pointResults: ReadonlyArray<ReadonlyArray<LocalResult> | null>, ownPlaceId: string, limit = 3): Competitor[] {
  const byId = new Map<string, Competitor>();
  for (const results of pointResults) {
    if (!results) continue;
    results.forEach((listing, index) => {
      const position = listingPosition(listing.position, index);
      if (position > 3 || !listing.place_id || listing.place_id === ownPlaceId) return;
      const entry = byId.get(listing.place_id) ?? { placeId: listing.place_id, title: listing.title ?? "", top3Points: 0, firstPoints: 0 };
      entry.top3Points++;
      if (position === 1) entry.firstPoints++;
      if (!entry.title && listing.title) entry.title = listing.title;
      byId.set(listing.place_id, entry);
    });
  }
  return [...byId.values()]
    .sort((a, b) => b.top3Points - a.top3Points || b.firstPoints - a.firstPoints || a.title.localeCompare(b.title))
    .slice(0, limit);
}

/** One point of a scan, as the CSV carries it. */
export type ScanPointRow = { row: number; col: number; lat: number; lng: number; result: PointResult };

const STATUS_LABEL: Record<PointResult["status"], string> = {
  found: "Found",
  not_found: "Not in the top 20",
  failed: "Search failed",
  pending: "Pending",
};

/** A scan's points as CSV: a failed point says so and has no rank (it is not "not ranked"). */
export function scanPointsCsv(points: ReadonlyArray<ScanPointRow>): string {
  return toCsv([
    ["Row", "Column", "Latitude", "Longitude", "Status", "Rank"],
    ...points.map((p) => [p.row + 1, p.col + 1, Number(p.lat.toFixed(7)), Number(p.lng.toFixed(7)), STATUS_LABEL[p.result.status], p.result.status === "found" ? p.result.rank : ""]),
  ]);
}
