// The audit's small pure rules: PageSpeed's answer read (field before lab), a pasted Maps link, the area of an address,
// and what the report's prompt says when the audit had no data (nothing invented).
import { describe, expect, it } from "vitest";
import { itReturns, itReturnsEqual } from "../../domain/each";
import { readMapsUrl } from "../../../worker/features/audits/steps";
import { areaFromAddress } from "../../../worker/features/audits/subject";
import { readPageSpeed } from "../../../worker/platform/providers/pagespeed";
import { findingsPromptLines, type ReportFindings } from "../../../worker/features/reports/rules/findings";

describe("readPageSpeed", () => {
  it.each([
    [
      "field data when Google has it (CLS percentile is ×100)",
      {
        loadingExperience: { metrics: { LARGEST_CONTENTFUL_PAINT_MS: { percentile: 3100 }, INTERACTION_TO_NEXT_PAINT: { percentile: 180 }, CUMULATIVE_LAYOUT_SHIFT_SCORE: { percentile: 4 } } },
        lighthouseResult: { categories: { performance: { score: 0.72 } }, audits: { "largest-contentful-paint": { numericValue: 3400 } } },
      },
      { status: "ok", performanceScore: 72, lcpMs: 3100, inpMs: 180, cls: 0.04, source: "field" },
    ],
    [
      "lab figures without field data (no INP in a lab run)",
      { loadingExperience: { initial_url: "x" }, lighthouseResult: { categories: { performance: { score: 0.91 } }, audits: { "largest-contentful-paint": { numericValue: 2300 }, "cumulative-layout-shift": { numericValue: 0.02 } } } },
      { status: "ok", performanceScore: 91, lcpMs: 2300, inpMs: null, cls: 0.02, source: "lab" },
    ],
    ["nothing usable", { lighthouseResult: {} }, null],
  ])("%s", (_name, body, expected) => {
    expect(readPageSpeed(body as Record<string, unknown>)).toEqual(expected);
  });
});

describe("readMapsUrl", () => {
  itReturnsEqual("%s", readMapsUrl, [
    ["https://www.google.com/maps/place/?q=place_id:ChIJabc123", { placeId: "ChIJabc123" }],
    ["https://www.google.com/maps/search/?api=1&query=Joe&query_place_id=ChIJxyz", { placeId: "ChIJxyz" }],
    ["https://www.google.com/maps/place/Joe's+Plumbing/@30.26,-97.74,17z", { name: "Joe's Plumbing" }],
    ["https://maps.google.com/maps/place/Acme+Roofing/", { name: "Acme Roofing" }],
    ["https://example.com/maps/place/Joe", null],
    ["javascript:alert(1)", null],
    ["not a link", null],
  ]);
});

describe("areaFromAddress", () => {
  itReturns("%s → %s", areaFromAddress, [
    ["1200 Main St, Suite 300, Austin, TX 78701", "Austin, TX"],
    ["1200 Main St, Austin, TX 78701, USA", "Austin, TX"],
    ["Austin, TX", "Austin, TX"],
    ["Denver", "Denver"],
  ]);
});

describe("findingsPromptLines", () => {
  const none: ReportFindings = {
    overall: null, siteUrl: null, currentTitle: null, currentDescription: null, noWebsite: false, rating: null, reviewCount: null,
    mapPosition: null, organicPosition: null, keyword: "plumber", competitors: [], gaps: [], seen: [], noData: ["Local rank", "Competitors"],
  };

  it("states no fact the audit did not see, and names the sections without data", () => {
    const text = findingsPromptLines(none).join("\n");
    expect(text).not.toMatch(/rating|position|competitors in the map pack|current page title/i);
    expect(text).toContain("No data for: Local rank, Competitors (do not claim anything about these)");
  });

  it("says no website as a finding, with what it costs", () => {
    expect(findingsPromptLines({ ...none, noWebsite: true }).join("\n")).toContain("no website we could find");
  });
});
