// The Local Rank Tracker's pure rules (issue 19): what a tracked keyword request may ask for, the change since the
// last and the first check, the alert rule, and which keywords the cron should check now. Failed checks are gaps.
import { z } from "zod";
import { MISS_RANK, ONE_RANK_BUSINESS, RankTargetFields, isCompleted, oneRankBusiness, type CompletedResult, type PointResult } from "./metrics";

export const TRACK_FREQUENCY_MESSAGE = "Choose daily or weekly checks.";

/** POST /api/rank/keywords and the add-keyword form: own business or a prospect (admins only: the route checks). */
export const TrackKeywordRequest = z
  .object({
    ...RankTargetFields,
    frequency: z.enum(["daily", "weekly"], { error: TRACK_FREQUENCY_MESSAGE }).default("daily"),
  })
  .refine(oneRankBusiness, ONE_RANK_BUSINESS);
export type TrackKeywordRequest = z.infer<typeof TrackKeywordRequest>;

/** PATCH /api/rank/keywords/:id: pause or resume, or change how often. */
export const TrackKeywordPatch = z
  .object({ paused: z.boolean().optional(), frequency: z.enum(["daily", "weekly"], { error: TRACK_FREQUENCY_MESSAGE }).optional() })
  .refine((p) => p.paused !== undefined || p.frequency !== undefined, { message: "Nothing to change." });
export type TrackKeywordPatch = z.infer<typeof TrackKeywordPatch>;

/** One check of a tracked keyword (map pack or organic). */
export type RankCheck = { checkedAt: string; result: PointResult };

export type PositionChange = {
  /** The earlier position; null when not in the top 20. */
  from: number | null;
  to: number | null;
  /** Positions gained (positive = up), a miss counting as 21; null without two completed checks. */
  gained: number | null;
};

function completedChecks(checks: ReadonlyArray<RankCheck>): Array<{ checkedAt: string; result: CompletedResult }> {
  return checks
    .filter((c): c is { checkedAt: string; result: CompletedResult } => isCompleted(c.result))
    .sort((a, b) => a.checkedAt.localeCompare(b.checkedAt));
}

function rankOrMiss(result: CompletedResult): number {
  return result.status === "found" ? result.rank : MISS_RANK;
}

function positionChange(from: CompletedResult | undefined, to: CompletedResult | undefined): PositionChange {
  const position = (r: CompletedResult | undefined) => (r?.status === "found" ? r.rank : null);
  return { from: position(from), to: position(to), gained: from && to ? rankOrMiss(from) - rankOrMiss(to) : null };
}

/** The latest completed check against the one before it; failed checks are gaps, skipped, never zeros. */
export function changeSinceLast(checks: ReadonlyArray<RankCheck>): PositionChange {
  const done = completedChecks(checks);
  if (done.length < 2) return { ...positionChange(undefined, done.at(-1)?.result), gained: null };
  return positionChange(done.at(-2)!.result, done.at(-1)!.result);
}

/** The latest completed check against the first one. */
export function changeSinceFirst(checks: ReadonlyArray<RankCheck>): PositionChange {
  const done = completedChecks(checks);
  if (done.length < 2) return { ...positionChange(undefined, done.at(-1)?.result), gained: null };
  return positionChange(done[0]!.result, done.at(-1)!.result);
}

export type AlertReason = "dropped" | "left_top3";
/** A drop of this many positions or more is an alert. */
export const ALERT_DROP_POSITIONS = 3;

/** Why a new completed check is an alert against the previous completed one (a miss counts as 21), if it is. */
export function rankAlert(previous: PointResult, current: PointResult): AlertReason[] {
  if (!isCompleted(previous) || !isCompleted(current)) return [];
  const reasons: AlertReason[] = [];
  if (rankOrMiss(current) - rankOrMiss(previous) >= ALERT_DROP_POSITIONS) reasons.push("dropped");
  if (rankOrMiss(previous) <= 3 && rankOrMiss(current) > 3) reasons.push("left_top3");
  return reasons;
}

/** Whether the latest completed check is an alert against the completed one before it (failed checks skipped). */
export function latestAlert(checks: ReadonlyArray<RankCheck>): AlertReason[] {
  const done = completedChecks(checks);
  return done.length < 2 ? [] : rankAlert(done.at(-2)!.result, done.at(-1)!.result);
}

export type CheckFrequency = "daily" | "weekly";
export const FREQUENCY_MS: Record<CheckFrequency, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };
/** The cron may run a little early or late, and a check lands a little after it is enqueued: this much slack. */
export const DUE_SLACK_MS = 60 * 60_000;

export type TrackedKeyword = {
  id: string;
  frequency: CheckFrequency;
  paused: boolean;
  /** When its last check was enqueued (whatever its outcome: the queue retries failures); null: never. */
  lastCheckAt: string | null;
};

/** Whether the cron should enqueue this keyword's check now. */
export function isDue(keyword: TrackedKeyword, now: Date): boolean {
  if (keyword.paused) return false;
  if (keyword.lastCheckAt === null) return true;
  const last = Date.parse(keyword.lastCheckAt);
  if (Number.isNaN(last)) return true;
  return now.getTime() - last >= FREQUENCY_MS[keyword.frequency] - DUE_SLACK_MS;
}

export function dueKeywords<K extends TrackedKeyword>(keywords: ReadonlyArray<K>, now: Date): K[] {
  return keywords.filter((k) => isDue(k, now));
}
