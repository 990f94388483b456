// The monthly report's Google figures (issue 30): month bounds, a month's totals from daily series (a metric Google
// did not give is null, never 0), and the change from the month before.
import { describe, expect, it } from "vitest";
import { change, monthBounds, performanceMonth } from "../../../worker/features/client-reports/rules/gbp-performance";

describe("monthBounds", () => {
  it("gives the first and last day and the month before, across years and leap Februaries", () => {
    expect(monthBounds("2026-11")).toEqual({ start: { year: 2026, month: 11, day: 1 }, end: { year: 2026, month: 11, day: 30 }, previous: "2026-10" });
    expect(monthBounds("2028-02").end.day).toBe(29);
    expect(monthBounds("2026-01").previous).toBe("2025-12");
    expect(() => monthBounds("2026-13")).toThrow(RangeError);
  });
});

describe("performanceMonth", () => {
  const series = new Map([
    ["CALL_CLICKS", new Map([["2026-10-31", 4], ["2026-11-01", 3], ["2026-11-02", 0], ["2026-11-30", 5]])],
    ["BUSINESS_IMPRESSIONS_MOBILE_SEARCH", new Map([["2026-11-01", 100]])],
    ["BUSINESS_IMPRESSIONS_DESKTOP_SEARCH", new Map([["2026-11-01", 20]])],
    ["BUSINESS_IMPRESSIONS_MOBILE_MAPS", new Map([["2026-11-03", 7]])],
  ]);

  it("sums the month's days only, and leaves a metric Google did not give as null", () => {
    const m = performanceMonth(series, "2026-11");
    expect(m.calls).toBe(8);
    expect(m.websiteClicks).toBeNull();
    expect(m.impressions.search).toBe(120);
    // Maps desktop was not given, so the maps total and the overall total are not known either.
    expect(m.impressions.mapsMobile).toBe(7);
    expect(m.impressions.maps).toBeNull();
    expect(m.impressions.total).toBeNull();
    expect(performanceMonth(series, "2026-10").calls).toBe(4);
  });

  it("the change: difference and percentage, null when a side is missing or the month before was 0", () => {
    expect(change(120, 100)).toEqual({ delta: 20, percent: 20 });
    expect(change(5, 0)).toEqual({ delta: 5, percent: null });
    expect(change(null, 3)).toEqual({ delta: null, percent: null });
  });
});
