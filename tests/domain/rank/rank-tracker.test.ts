// Tests the tracker's rules: the keyword request, change since last and first, alerts and which keywords are due —
// a failed check is a gap, never a drop to "not ranked".
import { describe, it, expect } from "vitest";
import { failed, found, miss, pending } from "./point-results";
import { itReturns } from "../each";
import { RANK_BUSINESS_MESSAGE, RANK_KEYWORD_MESSAGE, type PointResult } from "../../../worker/features/rank/rules/metrics";
import {
  TRACK_FREQUENCY_MESSAGE,
  TrackKeywordPatch,
  TrackKeywordRequest,
  changeSinceFirst,
  changeSinceLast,
  dueKeywords,
  isDue,
  latestAlert,
  rankAlert,
  type RankCheck,
  type TrackedKeyword,
} from "../../../worker/features/rank/rules/tracker";


describe("TrackKeywordRequest", () => {
  it("defaults to daily checks", () => {
    expect(TrackKeywordRequest.parse({ own: true, keyword: " roofer " })).toEqual({ own: true, keyword: "roofer", frequency: "daily" });
  });

  it.each([
    [{ keyword: "x" }, RANK_BUSINESS_MESSAGE],
    [{ own: true, prospectId: "p", keyword: "x" }, RANK_BUSINESS_MESSAGE],
    [{ own: true, keyword: "" }, RANK_KEYWORD_MESSAGE],
    [{ own: true }, RANK_KEYWORD_MESSAGE],
    [{ prospectId: "p", keyword: "x", frequency: "hourly" }, TRACK_FREQUENCY_MESSAGE],
  ])("refuses %o", (input, message) => {
    const parsed = TrackKeywordRequest.safeParse(input);
    expect(parsed.success ? undefined : parsed.error.issues[0]?.message).toBe(message);
  });

  it("a patch pauses, resumes or changes the frequency, and must change something", () => {
    expect(TrackKeywordPatch.parse({ paused: true })).toEqual({ paused: true });
    expect(TrackKeywordPatch.parse({ frequency: "weekly" })).toEqual({ frequency: "weekly" });
    expect(TrackKeywordPatch.safeParse({}).success).toBe(false);
    expect(TrackKeywordPatch.safeParse({ frequency: "monthly" }).success).toBe(false);
  });
});

describe("tracker: change since last and first", () => {
  const at = (day: number, result: PointResult): RankCheck => ({ checkedAt: `2026-11-${String(day).padStart(2, "0")}T06:00:00.000Z`, result });

  it.each([
    { name: "no checks", checks: [], last: { from: null, to: null, gained: null }, first: { from: null, to: null, gained: null } },
    { name: "one check", checks: [at(1, found(5))], last: { from: null, to: 5, gained: null }, first: { from: null, to: 5, gained: null } },
    {
      name: "climbing",
      checks: [at(1, found(9)), at(2, found(6)), at(3, found(2))],
      last: { from: 6, to: 2, gained: 4 },
      first: { from: 9, to: 2, gained: 7 },
    },
    {
      name: "failed checks are gaps, not zeros",
      checks: [at(1, found(9)), at(2, found(6)), at(3, failed), at(4, failed)],
      last: { from: 9, to: 6, gained: 3 },
      first: { from: 9, to: 6, gained: 3 },
    },
    {
      name: "a failed first check is skipped",
      checks: [at(1, failed), at(2, found(8)), at(3, found(4))],
      last: { from: 8, to: 4, gained: 4 },
      first: { from: 8, to: 4, gained: 4 },
    },
    {
      name: "leaving the top 20 counts as 21",
      checks: [at(1, found(18)), at(2, miss)],
      last: { from: 18, to: null, gained: -3 },
      first: { from: 18, to: null, gained: -3 },
    },
    {
      name: "out of order input is sorted by time",
      checks: [at(3, found(2)), at(1, found(9)), at(2, found(6))],
      last: { from: 6, to: 2, gained: 4 },
      first: { from: 9, to: 2, gained: 7 },
    },
  ])("$name", ({ checks, last, first }) => {
    expect(changeSinceLast(checks)).toEqual(last);
    expect(changeSinceFirst(checks)).toEqual(first);
  });
});

describe("tracker: alerts", () => {
  it.each([
    [found(2), found(5), ["dropped", "left_top3"]],
    [found(3), found(4), ["left_top3"]],
    [found(1), found(3), []],
    [found(5), found(8), ["dropped"]],
    [found(5), found(7), []],
    [found(8), found(2), []],
    [found(18), miss, ["dropped"]], // a miss counts as 21
    [found(19), miss, []],
    [found(2), miss, ["dropped", "left_top3"]],
    [miss, miss, []],
    [found(2), failed, []], // failed is not unranked: no alert
    [failed, found(15), []],
    [found(2), pending, []],
  ])("%o → %o alerts %o", (previous, current, reasons) => {
    expect(rankAlert(previous, current)).toEqual(reasons);
  });
});

describe("tracker: the latest check's alert", () => {
  const at = (day: number, result: PointResult): RankCheck => ({ checkedAt: `2026-11-${String(day).padStart(2, "0")}T06:00:00.000Z`, result });

  it.each([
    { name: "no history", checks: [], reasons: [] },
    { name: "first check", checks: [at(1, found(9))], reasons: [] },
    { name: "a drop", checks: [at(1, found(2)), at(2, found(6))], reasons: ["dropped", "left_top3"] },
    { name: "a failed check is not a drop", checks: [at(1, found(2)), at(2, failed)], reasons: [] },
    { name: "a drop across a failed check", checks: [at(1, found(4)), at(2, failed), at(3, found(9))], reasons: ["dropped"] },
  ])("$name", ({ checks, reasons }) => {
    expect(latestAlert(checks)).toEqual(reasons);
  });
});

describe("tracker: which keywords are due", () => {
  const now = new Date("2026-11-24T06:00:00.000Z");
  const kw = (id: string, frequency: "daily" | "weekly", lastCheckAt: string | null, paused = false): TrackedKeyword => ({ id, frequency, paused, lastCheckAt });

  itReturns("%o due: %s", (keyword) => isDue(keyword, now), [
    [kw("never", "daily", null), true],
    [kw("never-paused", "daily", null, true), false],
    [kw("daily-yesterday", "daily", "2026-11-23T06:00:00.000Z"), true],
    [kw("daily-cron-late-yesterday", "daily", "2026-11-23T06:30:00.000Z"), true],
    [kw("daily-this-morning", "daily", "2026-11-24T01:00:00.000Z"), false],
    [kw("daily-paused", "daily", "2026-11-20T06:00:00.000Z", true), false],
    [kw("weekly-6-days", "weekly", "2026-11-18T06:00:00.000Z"), false],
    [kw("weekly-7-days", "weekly", "2026-11-17T06:00:00.000Z"), true],
    [kw("weekly-7-days-less-slack", "weekly", "2026-11-17T06:45:00.000Z"), true],
    [kw("unreadable", "daily", "not a date"), true],
  ]);

  it("picks exactly the due keywords, and none again right after their check", () => {
    const keywords = [kw("a", "daily", null), kw("b", "daily", "2026-11-24T00:00:00.000Z"), kw("c", "weekly", "2026-11-01T00:00:00.000Z"), kw("d", "weekly", null, true)];
    const due = dueKeywords(keywords, now);
    expect(due.map((k) => k.id)).toEqual(["a", "c"]);
    const afterwards = keywords.map((k) => (due.includes(k) ? { ...k, lastCheckAt: now.toISOString() } : k));
    expect(dueKeywords(afterwards, new Date(now.getTime() + 60 * 60_000))).toEqual([]);
  });
});
