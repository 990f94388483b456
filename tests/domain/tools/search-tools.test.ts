// The search tools' pure rules: local-services sample listings, sample search results, cache key, copy text.
import { describe, expect, it } from "vitest";
import { itReturns } from "../each";
import {
  buildLocalServiceListings,
  buildSampleSearchResults,
  GoogleResultsQuery,
  listingAllInfo,
  SEARCH_FIELDS_REQUIRED,
  searchCacheKey,
  timeoutMessage,
  tradeKeyword,
  TRADE_KEYWORDS,
} from "../../../worker/features/tools/rules/search-tools";

const FIELDS = [
  "title", "description", "displayUrl", "targetUrl", "position", "rating", "reviews", "phone", "address", "badge",
  "type", "service_area", "years_in_business", "thumbnail", "hours", "hours_detail", "service_options",
].sort();

describe("buildLocalServiceListings", () => {
  it.each([
    ["Coffee", "New York, NY, United States"],
    ["Plumber", "Austin, TX"],
    ["Emergency HVAC repair", "Denver, CO"],
  ])("builds five listings with every field of §3 for %s in %s", (businessType, location) => {
    const listings = buildLocalServiceListings({ businessType, location });
    expect(listings).toHaveLength(5);
    expect(listings.map((l) => l.position)).toEqual([1, 2, 3, 4, 5]);
    for (const l of listings) {
      expect(Object.keys(l).sort()).toEqual(FIELDS);
      expect(l.rating).toBeGreaterThanOrEqual(4);
      expect(l.rating).toBeLessThanOrEqual(5);
      expect(l.address).toContain(location);
      expect(l.targetUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
      expect(l.hours_detail).toHaveLength(7);
      // The fictional range only: a sample number never rings a real business.
      expect(l.phone).toMatch(/^\(\d{3}\) 555-01\d{2}$/);
    }
    expect(new Set(listings.map((l) => l.title)).size).toBe(5);
  });

  it("gives the same output for the same input, and different output for another location", () => {
    const a = buildLocalServiceListings({ businessType: "Roofer", location: "Austin, TX" });
    expect(buildLocalServiceListings({ businessType: "Roofer", location: "Austin, TX" })).toEqual(a);
    expect(buildLocalServiceListings({ businessType: "Roofer", location: "Dallas, TX" })).not.toEqual(a);
  });

  it.each([
    ["Plumber", "plumber", "Google Guaranteed"],
    ["house cleaning service", "house cleaning", "Google Guaranteed"],
    ["Garage Door Repair", "garage door repair", "Google Guaranteed"],
    ["Coffee", null, "Top rated"],
    ["Restaurant", null, "Top rated"],
  ])("%s → trade %s, first badge %s", (businessType, trade, badge) => {
    expect(tradeKeyword(businessType)).toBe(trade);
    const [first] = buildLocalServiceListings({ businessType, location: "Austin, TX" });
    expect(first!.badge).toBe(badge);
    if (trade) expect(first!.description).toContain(trade);
  });

  it("names every trade keyword of §9 as service-style", () => {
    for (const k of TRADE_KEYWORDS) expect(tradeKeyword(`best ${k} near me`)).toBe(k);
  });
});

describe("buildSampleSearchResults", () => {
  it("builds five results of the §3 shape from the keyword and location, the same each time", () => {
    const input = { keyword: "plumber", location: "Austin, TX" };
    const results = buildSampleSearchResults(input);
    expect(results).toHaveLength(5);
    expect(results.every((r) => r.title && r.snippet && r.link.startsWith("https://") && r.displayedLink)).toBe(true);
    expect(results[0]!.title).toContain("Plumber");
    expect(buildSampleSearchResults(input)).toEqual(results);
  });
});

describe("search rules", () => {
  it.each([
    [{ keyword: "", location: "Austin" }],
    [{ keyword: "plumber", location: "   " }],
    [{ location: "Austin" }],
  ])("refuses %o with the spec's message", (input) => {
    const r = GoogleResultsQuery.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe(SEARCH_FIELDS_REQUIRED);
  });

  it("keys the cache on keyword and location, ignoring case and spacing", () => {
    expect(searchCacheKey({ keyword: " Plumber  Pro ", location: "Austin,  TX" })).toBe("plumber pro|austin, tx");
    expect(searchCacheKey({ keyword: "a", location: "b c" })).not.toBe(searchCacheKey({ keyword: "a b", location: "c" }));
  });

  it("copies all info as name, URL and description on separate lines", () => {
    expect(listingAllInfo({ title: "A", displayUrl: "www.a.com", description: "D" })).toBe("A\nwww.a.com\nD");
  });

  itReturns("words a %i ms time-out as %s", timeoutMessage, [
    [15000, "Request timed out after 15 seconds"],
    [1000, "Request timed out after 1 second"],
  ]);
});
