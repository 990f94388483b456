// The monthly client report's pure rules (issue 30): month bounds in the business's zone, the default month, the
// next run, the comparison of a figure with the month before, the three headline figures chosen by what exists (a
// missing source is never a 0), and the template summary built from the same figures.
import { describe, expect, it } from "vitest";
import {
  compared,
  headlineFigures,
  lastWholeMonth,
  monthLabel,
  monthRangeUtc,
  nextRunAt,
  previousMonthOf,
  templateSummary,
  type HeadlineInput,
} from "../../../worker/features/client-reports/rules/client-report";

const none: HeadlineInput = { google: { status: "not_connected" }, grid: null, tracker: null, aiVisibility: null, citations: null, reviews: null, posts: null };

describe("months in the business's zone", () => {
  it("bounds a month at local midnight (Chicago: UTC-5 in October, UTC-6 in November)", () => {
    expect(monthRangeUtc("2026-10", "America/Chicago")).toEqual({ start: "2026-10-01T05:00:00.000Z", end: "2026-11-01T05:00:00.000Z" });
    expect(monthRangeUtc("2026-12", "UTC")).toEqual({ start: "2026-12-01T00:00:00.000Z", end: "2027-01-01T00:00:00.000Z" });
  });

  it("takes the last whole month on the local clock: 03:00 UTC on 1 Nov is still October in Chicago", () => {
    expect(lastWholeMonth(new Date("2026-11-01T03:00:00Z"), "America/Chicago")).toBe("2026-09");
    expect(lastWholeMonth(new Date("2026-11-01T06:00:00Z"), "America/Chicago")).toBe("2026-10");
    expect(lastWholeMonth(new Date("2027-01-15T12:00:00Z"), "UTC")).toBe("2026-12");
  });

  it("runs next at local midnight of the 1st of next month", () => {
    expect(nextRunAt(new Date("2026-11-15T12:00:00Z"), "America/Chicago")).toBe("2026-12-01T06:00:00.000Z");
  });

  it("labels and steps months across a year", () => {
    expect(monthLabel("2026-10")).toBe("October 2026");
    expect(previousMonthOf("2026-01")).toBe("2025-12");
  });
});

describe("compared", () => {
  it("gives the change and the percentage, null where either side is missing or the base is 0", () => {
    expect(compared(12, 8)).toEqual({ current: 12, previous: 8, delta: 4, percent: 50 });
    expect(compared(3, 0)).toEqual({ current: 3, previous: 0, delta: 3, percent: null });
    expect(compared(3, null)).toEqual({ current: 3, previous: null, delta: null, percent: null });
  });
});

describe("headline figures", () => {
  it("shows nothing when nothing was measured (never zeros)", () => {
    expect(headlineFigures(none)).toEqual([]);
  });

  it("picks calls, SoLV and new reviews first when they exist", () => {
    const figures = headlineFigures({
      ...none,
      google: { status: "ok", locationTitle: "Acme", calls: compared(30, 20), websiteClicks: compared(1, 1), directions: compared(1, 1), impressions: { search: compared(1, 1), maps: compared(1, 1), total: compared(2, 2) }, current: {} as never, previous: {} as never, keywords: [] },
      grid: [{ keyword: "roofer", current: { scanId: "a", finishedAt: "", size: 3, radiusMiles: 1, ranks: [], solv: 44.4, atrp: 5.2 }, previous: { scanId: "b", finishedAt: "", size: 3, radiusMiles: 1, ranks: [], solv: 33.3, atrp: 7 } }],
      reviews: { newReviews: compared(4, 6), monthAverage: 4.5, overallAverage: 4.7, totalReviews: 40, replyRate: 75, requestsSent: 9 },
      posts: { published: compared(2, 1), items: [] },
    });
    expect(figures.map((f) => f.key)).toEqual(["calls", "solv", "reviews"]);
    expect(figures[0]).toMatchObject({ value: "30", change: "+50% vs last month", direction: "up" });
    expect(figures[1]).toMatchObject({ value: "44.4%", change: "+11.1 points vs last month", direction: "up" });
    expect(figures[2]).toMatchObject({ value: "4", change: "-33.3% vs last month", direction: "down" });
  });

  it("falls back to the sources that exist: AI mention rate, listings, posts", () => {
    const figures = headlineFigures({
      ...none,
      aiVisibility: { scanId: "s", scannedAt: "", engines: [], questions: 2, answers: 10, mentionRate: 0.4, low: 0.17, high: 0.69, shareOfVoice: null, previous: null },
      citations: { scanId: "c", scannedAt: "", checked: 10, consistent: 6, inconsistent: 2, duplicate: 0, notFound: 2, consistencyPercent: 75, previousPercent: 50 },
      posts: { published: compared(2, null), items: [] },
    });
    expect(figures.map((f) => [f.key, f.value, f.change])).toEqual([
      ["ai_mention_rate", "40%", null],
      ["citations", "75%", "+25 points vs last month"],
      ["posts", "2", null],
    ]);
  });
});

describe("template summary", () => {
  it("uses the headline figures and what we did, nothing else", () => {
    const headline = headlineFigures({ ...none, reviews: { newReviews: compared(4, 2), monthAverage: 5, overallAverage: 4.8, totalReviews: 12, replyRate: 100, requestsSent: 3 } });
    const text = templateSummary({ business: { name: "Acme Roofing", website: null, location: null, category: null }, monthLabel: "October 2026", headline, whatWeDid: [{ key: "requests", label: "Review requests sent", count: 3 }, { key: "posts", label: "Google posts published", count: 0 }] });
    expect(text).toBe("In October 2026, Acme Roofing's figures were: new reviews 4 (+100% vs last month). This month we worked on: 3 review requests sent.");
  });

  it("says when nothing was measured", () => {
    expect(templateSummary({ business: { name: "Acme", website: null, location: null, category: null }, monthLabel: "October 2026", headline: [], whatWeDid: [] })).toContain("Not enough was measured");
  });
});
