// Tests the audit score: seven equally weighted sections, unknown checks left out, "no data" sections left out of the
// overall, and "what to fix first" ordered by the points a fix adds.
import { describe, it, expect } from "vitest";
import type { Check, CheckId, SectionId, Verdict } from "../../../worker/features/audits/rules/checks";
import { SECTIONS, fixFirst, scoreAudit } from "../../../worker/features/audits/rules/score";

const c = (id: CheckId, section: SectionId, verdict: Verdict): Check => ({ id, section, verdict, evidence: `${id} ${verdict}` });

describe("scoreAudit", () => {
  it("has the seven sections in the report's order", () => {
    expect(SECTIONS.map((s) => s.label)).toEqual([
      "Business details",
      "Google Business Profile",
      "Reputation",
      "Website performance",
      "On-page SEO",
      "Local rank",
      "Competitors",
    ]);
  });

  it.each<[Verdict[], number | null]>([
    [["pass", "pass"], 100],
    [["pass", "warn"], 75],
    [["pass", "fail"], 50],
    [["warn", "warn", "fail"], 33],
    [["fail", "fail"], 0],
    [["pass", "unknown"], 100],
    [["fail", "unknown", "unknown"], 0],
    [["unknown", "unknown"], null],
    [[], null],
  ])("a section with %j scores %s", (verdicts, score) => {
    const result = scoreAudit(verdicts.map((v) => c("title", "on_page_seo", v)));
    expect(result.sections.find((s) => s.id === "on_page_seo")!.score).toBe(score);
  });

  it("weighs the sections equally, whatever their number of checks", () => {
    const checks = [
      c("title", "on_page_seo", "pass"),
      c("h1", "on_page_seo", "pass"),
      c("canonical", "on_page_seo", "pass"),
      c("lang", "on_page_seo", "pass"),
      c("gbp_found", "google_business_profile", "fail"),
    ];
    expect(scoreAudit(checks).overall).toBe(50);
  });

  it("leaves sections with no known checks out of the overall and names them", () => {
    const checks = [
      c("title", "on_page_seo", "pass"),
      c("rating", "reputation", "warn"),
      c("lcp", "website_performance", "unknown"),
      c("map_pack_position", "local_rank", "unknown"),
    ];
    const result = scoreAudit(checks);
    expect(result.overall).toBe(75);
    expect(result.noData).toEqual(["business_details", "google_business_profile", "website_performance", "local_rank", "competitors"]);
    expect(result.sections.find((s) => s.id === "website_performance")).toMatchObject({ score: null, known: 0, total: 1 });
  });

  it("averages the sections' exact values, not their rounded ones", () => {
    const checks = [
      c("title", "on_page_seo", "pass"),
      c("h1", "on_page_seo", "fail"),
      c("lang", "on_page_seo", "fail"),
      c("gbp_found", "google_business_profile", "pass"),
      c("gbp_hours", "google_business_profile", "fail"),
      c("gbp_website", "google_business_profile", "fail"),
      c("rating", "reputation", "pass"),
    ];
    // (33.33 + 33.33 + 100) / 3 = 55.6; from the rounded 33, 33 and 100 it would be 55
    const result = scoreAudit(checks);
    expect(result.overall).toBe(56);
    expect(result.sections.find((s) => s.id === "on_page_seo")!.score).toBe(33);
  });

  it("has no overall when nothing could be checked", () => {
    expect(scoreAudit([c("title", "on_page_seo", "unknown")])).toMatchObject({ overall: null });
  });
});

describe("fixFirst", () => {
  it("orders by the points a fix adds: a check in a small section weighs more", () => {
    const checks = [
      c("title", "on_page_seo", "fail"),
      c("h1", "on_page_seo", "pass"),
      c("canonical", "on_page_seo", "pass"),
      c("lang", "on_page_seo", "pass"),
      c("gbp_hours", "google_business_profile", "fail"),
      c("gbp_found", "google_business_profile", "pass"),
      c("rating", "reputation", "warn"),
    ];
    const fixes = fixFirst(checks);
    expect(fixes.map((f) => [f.check.id, f.points])).toEqual([
      ["gbp_hours", 16.7], // all of one of two checks: 1 × 100 / 2 / 3 sections
      ["rating", 16.7], // half of a one-check section: 0.5 × 100 / 1 / 3; a warn after a fail of the same worth
      ["title", 8.3], // all of one of four: 1 × 100 / 4 / 3
    ]);
  });

  it("puts a fail before a warn worth the same, and leaves out passes and unknowns", () => {
    const checks = [
      c("rating", "reputation", "warn"),
      c("review_count", "reputation", "unknown"),
      c("gbp_hours", "google_business_profile", "fail"),
      c("gbp_found", "google_business_profile", "pass"),
    ];
    expect(fixFirst(checks).map((f) => f.check.id)).toEqual(["gbp_hours", "rating"]);
  });

  it("keeps to the limit", () => {
    const checks = [c("title", "on_page_seo", "fail"), c("h1", "on_page_seo", "fail"), c("lang", "on_page_seo", "warn")];
    expect(fixFirst(checks, 2).map((f) => f.check.id)).toEqual(["title", "h1"]);
    expect(fixFirst([])).toEqual([]);
  });
});
