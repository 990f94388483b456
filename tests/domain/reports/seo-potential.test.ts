// Tests the SEO potential derived from a stored score and its ranking label.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import { oneDecimal, potentialFromScore, rankingLabel } from "../../../worker/features/reports/rules/seo-potential";

describe("potentialFromScore", () => {
  it.each([[null], [undefined], [Number.NaN]])("uses the defaults when the score is %s", (score) => {
    expect(potentialFromScore(score)).toEqual({ score: 85, keyword_potential: 8.5, business_relevance: 9.2, competition: "Low" });
  });

  it("derives keyword potential and business relevance from the score", () => {
    const potential = potentialFromScore(72);
    expect(potential.score).toBe(72);
    expect(potential.keyword_potential).toBeCloseTo(7.2);
    expect(potential.business_relevance).toBeCloseTo(6.84);
  });

  it("gives a stored 85 a relevance of 8.075, not the default 9.2", () => {
    expect(potentialFromScore(85).business_relevance).toBeCloseTo(8.075);
  });

  itReturns("score %i has %s competition", (score) => potentialFromScore(score).competition, [
    [100, "Low"],
    [81, "Low"],
    [80, "Medium"],
    [61, "Medium"],
    [60, "High"],
    [1, "High"],
  ]);
});

describe("rankingLabel", () => {
  itReturns("score %d is %s", rankingLabel, [
    [100, "HIGH"],
    [80, "HIGH"],
    [79.9, "MEDIUM"],
    [60, "MEDIUM"],
    [59, "LOW"],
    [0, "LOW"],
  ]);
});

describe("oneDecimal", () => {
  itReturns("%d → %s", oneDecimal, [
    [8.5, "8.5"],
    [9, "9.0"],
    [6.84, "6.8"],
    [8.075, "8.1"],
  ]);
});
