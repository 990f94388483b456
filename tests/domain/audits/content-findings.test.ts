// What a content prompt takes from an audit (contentFindings): the keyword when the business ranks poorly, the gaps in
// fix-first order; a failed rank step says nothing about ranking, and an audit with nothing to act on gives null.
import { describe, expect, it } from "vitest";
import type { Check, RankInput } from "../../../worker/features/audits/rules/checks";
import type { Fix } from "../../../worker/features/audits/rules/score";
import { contentFindings } from "../../../worker/features/content/rules/content";

const rank = (mapPosition: number | null, organicPosition: number | null): RankInput => ({
  status: "ok",
  keyword: "plumber austin",
  area: "Austin, TX",
  mapPosition,
  mapResultsChecked: 20,
  organicPosition,
  organicResultsChecked: 100,
});
const fix = (evidence: string, points: number): Fix => ({
  check: { id: "title", section: "on_page_seo", verdict: "fail", evidence } satisfies Check,
  points,
});

describe("contentFindings", () => {
  it.each([
    ["in the map pack and on page one", rank(2, 4), []],
    ["fourth on the map", rank(4, 4), ["plumber austin"]],
    ["not on the map at all", rank(null, 4), ["plumber austin"]],
    ["off the first page of results", rank(1, 11), ["plumber austin"]],
    ["not in the organic results", rank(3, null), ["plumber austin"]],
    ["a failed rank step", { status: "failed", reason: "search refused" } as RankInput, []],
    ["no rank step", null, []],
  ])("weak keywords when %s", (_label, r, expected) => {
    const found = contentFindings({ rank: r, fixFirst: [fix("Your page has no title.", 4)] });
    expect(found?.weakKeywords).toEqual(expected);
  });

  it("keeps the gaps in fix-first order", () => {
    const found = contentFindings({ rank: rank(1, 1), fixFirst: [fix("First gap.", 6), fix("Second gap.", 2)] });
    expect(found).toEqual({ weakKeywords: [], gaps: ["First gap.", "Second gap."] });
  });

  it("is null when the audit found nothing to act on", () => {
    expect(contentFindings({ rank: rank(1, 1), fixFirst: [] })).toBeNull();
    expect(contentFindings({ rank: null, fixFirst: [] })).toBeNull();
  });
});
