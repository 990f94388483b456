// Tests every audit check over what a step saw: thresholds exactly as issue 18 sets them, plain-words evidence,
// zero false flags on the traps (DBA, suite, phone formats, call tracking, www→non-www), and missing data as unknown.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import {
  checkH1,
  checkHttpRedirect,
  checkLocalBusinessSchema,
  checkMetaDescription,
  checkTitle,
  competitorChecks,
  keepGoodResult,
  listingChecks,
  napChecks,
  pageChecks,
  pageSpeedChecks,
  rankChecks,
  readJsonLd,
  runChecks,
  type Check,
  type CheckId,
  type Listing,
  type PageFacts,
  type RankInput,
} from "../../../worker/features/audits/rules/checks";

const schema = JSON.stringify({
  "@context": "https://schema.org",
  "@type": "Plumber",
  name: "Smith Plumbing",
  address: { "@type": "PostalAddress", streetAddress: "123 Main Street, Suite 200", addressLocality: "Springfield", addressRegion: "IL", postalCode: "62701" },
  telephone: "+1 (555) 123-4567",
});

function facts(overrides: Partial<PageFacts> = {}): PageFacts {
  return {
    redirectChain: ["http://www.smithplumbing.com/", "https://www.smithplumbing.com/", "https://smithplumbing.com/"],
    finalUrl: "https://smithplumbing.com/",
    title: "Smith Plumbing | Springfield Plumber, 24/7", // 42 characters
    metaDescription: "Licensed plumbers in Springfield, IL. Leaks, drains, water heaters and emergency repairs, day or night.",
    h1Count: 1,
    canonical: "https://smithplumbing.com/",
    viewport: "width=device-width, initial-scale=1",
    lang: "en",
    noindex: false,
    jsonLd: [schema],
    telLinks: ["tel:+15551234567"],
    text: "Call (555) 123-4567 today",
    openGraph: { "og:title": "Smith Plumbing", "og:description": "Plumbers", "og:image": "https://smithplumbing.com/og.png" },
    analytics: ["Google Analytics"],
    ...overrides,
  };
}

const listing: Listing = {
  name: "Smith Plumbing LLC",
  address: "123 Main St, Springfield, IL 62701, USA",
  phone: "(555) 123-4567",
  website: "http://www.smithplumbing.com/",
  categories: ["Plumber"],
  hoursSet: true,
  rating: 4.7,
  reviewCount: 80,
};

const byId = (checks: Check[], id: CheckId) => checks.find((c) => c.id === id)!;

describe("checkTitle (30–60 characters)", () => {
  itReturns("%s → %s", (title) => checkTitle(title).verdict, [
    [null, "fail"],
    ["   ", "fail"],
    ["a".repeat(29), "warn"],
    ["a".repeat(30), "pass"],
    ["a".repeat(60), "pass"],
    ["a".repeat(61), "warn"],
  ]);

  it("says it in plain words", () => {
    expect(checkTitle("x".repeat(78)).evidence).toBe("Your page title is 78 characters; Google shows about 60.");
  });
});

describe("checkMetaDescription (70–160 characters)", () => {
  itReturns("%s → %s", (description) => checkMetaDescription(description).verdict, [
    [null, "fail"],
    ["d".repeat(69), "warn"],
    ["d".repeat(70), "pass"],
    ["d".repeat(160), "pass"],
    ["d".repeat(161), "warn"],
  ]);
});

describe("checkH1 (exactly one)", () => {
  itReturns("%i H1 → %s", (count) => checkH1(count).verdict, [
    [0, "fail"],
    [1, "pass"],
    [2, "warn"],
  ]);
});

describe("the page checks", () => {
  it("pass on a good page reached through www→non-www and http→https redirects", () => {
    const checks = pageChecks({ status: "fetched", facts: facts() });
    expect(checks.filter((c) => c.verdict !== "pass")).toEqual([]);
    expect(byId(checks, "website_present").evidence).toContain("https://smithplumbing.com/");
  });

  it.each<[Partial<PageFacts>, CheckId, string]>([
    [{ canonical: null }, "canonical", "warn"],
    [{ viewport: null }, "viewport", "fail"],
    [{ lang: "" }, "lang", "warn"],
    [{ noindex: true }, "noindex", "fail"],
    [{ openGraph: { "og:title": "x" } }, "open_graph", "warn"],
    [{ analytics: [] }, "analytics", "warn"],
    [{ finalUrl: "http://smithplumbing.com/", redirectChain: ["http://smithplumbing.com/"] }, "https", "fail"],
    [{ finalUrl: "http://smithplumbing.com/", redirectChain: ["http://smithplumbing.com/"] }, "http_redirect", "fail"],
    [{ redirectChain: ["https://www.smithplumbing.com/", "https://smithplumbing.com/"] }, "http_redirect", "unknown"],
    [{ telLinks: [] }, "phone_clickable", "warn"],
    [{ telLinks: [], text: "Contact us", jsonLd: [] }, "phone_clickable", "fail"],
    [{ telLinks: [], text: "Contact us", jsonLd: [] }, "phone_on_page", "fail"],
    [{ telLinks: [], text: "Contact us" }, "phone_on_page", "pass"], // the number in the structured data counts
    [{ jsonLd: [] }, "local_business_schema", "warn"],
  ])("%j → %s is %s", (overrides, id, verdict) => {
    expect(byId(pageChecks({ status: "fetched", facts: facts(overrides) }), id).verdict).toBe(verdict);
  });

  it("says the business has no website as a finding, and every other page check is unknown with why", () => {
    const checks = pageChecks({ status: "no_website" });
    expect(byId(checks, "website_present")).toMatchObject({ verdict: "fail", section: "business_details" });
    const rest = checks.filter((c) => c.id !== "website_present");
    expect(rest.length).toBe(14);
    for (const c of rest) expect(c).toMatchObject({ verdict: "unknown", reason: "the business has no website" });
  });

  it("never fails when the website could not be fetched", () => {
    const checks = pageChecks({ status: "failed", reason: "timed out after 10 s" });
    expect(checks.length).toBe(15);
    for (const c of checks) {
      expect(c.verdict).toBe("unknown");
      expect(c.reason).toContain("timed out after 10 s");
    }
  });

  it("judges the http→https redirect only when the chain began at http", () => {
    expect(checkHttpRedirect({ redirectChain: ["http://a.com/", "https://a.com/"], finalUrl: "https://a.com/" }).verdict).toBe("pass");
    expect(checkHttpRedirect({ redirectChain: [], finalUrl: "https://a.com/" }).verdict).toBe("unknown");
  });
});

describe("LocalBusiness JSON-LD", () => {
  itReturns("%j → %s", (blocks) => checkLocalBusinessSchema(blocks).verdict, [
    [[schema], "pass"],
    [[JSON.stringify({ "@graph": [{ "@type": "WebSite" }, JSON.parse(schema)] })], "pass"],
    [[JSON.stringify([{ "@type": ["Organization", "HVACBusiness"], name: "A", address: "1 Main St", telephone: "555-123-4567" }])], "pass"],
    [[JSON.stringify({ "@type": "https://schema.org/LocalBusiness", name: "A", address: "1 Main St", telephone: "555-123-4567" })], "pass"],
    [[JSON.stringify({ "@type": "Plumber", name: "A" })], "warn"],
    [[JSON.stringify({ "@type": "Organization", name: "A" })], "warn"],
    [["{ not json"], "warn"],
    [[], "warn"],
  ]);

  it("says why invalid JSON-LD could not be read", () => {
    const result = checkLocalBusinessSchema(["{ not json"]);
    expect(result.reason).toContain("block 1 is not valid JSON");
    expect(result.evidence).toContain("could not be read");
  });

  it("names what a LocalBusiness block is missing", () => {
    expect(checkLocalBusinessSchema([JSON.stringify({ "@type": "Plumber", name: "A" })]).evidence).toContain("missing its address, phone");
  });

  it("reads a valid block beside an invalid one", () => {
    const reading = readJsonLd(["{", schema]);
    expect(reading.errors).toHaveLength(1);
    expect(reading.businesses[0]).toMatchObject({ type: "Plumber", name: "Smith Plumbing", phone: "+1 (555) 123-4567" });
    expect(reading.businesses[0]!.address).toBe("123 Main Street, Suite 200, Springfield, IL, 62701");
  });
});

describe("NAP against the listing: the traps give zero false flags", () => {
  it("passes a DBA/LLC name, a suite number and a differently formatted phone", () => {
    const checks = napChecks({ status: "fetched", facts: facts() }, { status: "found", listing });
    expect(checks.map((c) => [c.id, c.verdict])).toEqual([
      ["name_matches", "pass"],
      ["address_matches", "pass"],
      ["phone_matches", "pass"],
    ]);
  });

  it("passes when the listing's number is one of several on the site (a call-tracking number beside it)", () => {
    const page = facts({ telLinks: ["tel:5558001111"], text: "Call 555-800-1111 or (555) 123-4567" });
    expect(byId(napChecks({ status: "fetched", facts: page }, { status: "found", listing }), "phone_matches").verdict).toBe("pass");
  });

  it("warns with both numbers when the site shows only a call-tracking number", () => {
    const page = facts({
      telLinks: ["tel:5558001111"],
      text: "Call 555-800-1111",
      jsonLd: [JSON.stringify({ ...JSON.parse(schema), telephone: "555-800-1111" })],
    });
    const phone = byId(napChecks({ status: "fetched", facts: page }, { status: "found", listing }), "phone_matches");
    expect(phone.verdict).toBe("warn");
    expect(phone.evidence).toContain("(555) 800-1111");
    expect(phone.evidence).toContain("(555) 123-4567");
  });

  it("is unknown when the site states no name or address in a readable form", () => {
    const checks = napChecks({ status: "fetched", facts: facts({ jsonLd: [] }) }, { status: "found", listing });
    expect(byId(checks, "name_matches").verdict).toBe("unknown");
    expect(byId(checks, "address_matches").verdict).toBe("unknown");
  });

  it("falls back to og:site_name for the site's name", () => {
    const page = facts({ jsonLd: [], openGraph: { "og:site_name": "The Smith Plumbing Co." } });
    expect(byId(napChecks({ status: "fetched", facts: page }, { status: "found", listing }), "name_matches").verdict).toBe("pass");
  });

  it.each([
    [{ status: "no_website" } as const, { status: "found", listing } as const],
    [{ status: "failed", reason: "refused: a private address" } as const, { status: "found", listing } as const],
    [{ status: "fetched", facts: facts() } as const, { status: "not_found", candidates: 2 } as const],
    [{ status: "fetched", facts: facts() } as const, { status: "failed", reason: "search timed out" } as const],
  ])("is unknown when a side is missing (%j)", (page, found) => {
    for (const c of napChecks(page, found)) expect(c.verdict).toBe("unknown");
  });
});

describe("listing checks", () => {
  it("pass for a complete, well-reviewed profile", () => {
    const checks = listingChecks({ status: "found", listing });
    expect(checks.map((c) => c.verdict)).toEqual(["pass", "pass", "pass", "pass", "pass", "pass"]);
    expect(byId(checks, "rating").section).toBe("reputation");
  });

  it.each<[Partial<Listing>, CheckId, string]>([
    [{ categories: [] }, "gbp_categories", "fail"],
    [{ categories: null }, "gbp_categories", "unknown"],
    [{ hoursSet: false }, "gbp_hours", "fail"],
    [{ hoursSet: null }, "gbp_hours", "unknown"],
    [{ website: null }, "gbp_website", "fail"],
    [{ website: undefined }, "gbp_website", "unknown"],
    [{ rating: 4.5 }, "rating", "pass"],
    [{ rating: 4.4 }, "rating", "warn"],
    [{ rating: 4.0 }, "rating", "warn"],
    [{ rating: 3.9 }, "rating", "fail"],
    [{ rating: null }, "rating", "unknown"],
    [{ reviewCount: 25 }, "review_count", "pass"],
    [{ reviewCount: 10 }, "review_count", "warn"],
    [{ reviewCount: 9 }, "review_count", "fail"],
    [{ reviewCount: null }, "review_count", "unknown"],
  ])("%j → %s is %s", (overrides, id, verdict) => {
    expect(byId(listingChecks({ status: "found", listing: { ...listing, ...overrides } }), id).verdict).toBe(verdict);
  });

  it("does not call a profile missing when listings came back but none matched with confidence", () => {
    const checks = listingChecks({ status: "not_found", candidates: 3 });
    expect(byId(checks, "gbp_found")).toMatchObject({ verdict: "unknown", reason: "no confident match" });
    for (const c of checks) expect(c.verdict).toBe("unknown");
  });

  it("says no profile was found when Maps returned nothing", () => {
    expect(byId(listingChecks({ status: "not_found", candidates: 0 }), "gbp_found").verdict).toBe("fail");
  });

  it("never fails when the search failed", () => {
    for (const c of listingChecks({ status: "failed", reason: "HTTP 429" })) {
      expect(c.verdict).toBe("unknown");
      expect(c.reason).toContain("HTTP 429");
    }
  });
});

describe("page speed by Core Web Vitals", () => {
  const speed = (over: Partial<{ performanceScore: number | null; lcpMs: number | null; inpMs: number | null; cls: number | null }>) =>
    pageSpeedChecks({ status: "ok", performanceScore: 95, lcpMs: 1800, inpMs: 150, cls: 0.05, source: "field", ...over });

  it.each<[Parameters<typeof speed>[0], CheckId, string]>([
    [{ lcpMs: 2500 }, "lcp", "pass"],
    [{ lcpMs: 2501 }, "lcp", "warn"],
    [{ lcpMs: 4001 }, "lcp", "fail"],
    [{ inpMs: 200 }, "inp", "pass"],
    [{ inpMs: 201 }, "inp", "warn"],
    [{ inpMs: 501 }, "inp", "fail"],
    [{ inpMs: null }, "inp", "unknown"],
    [{ cls: 0.1 }, "cls", "pass"],
    [{ cls: 0.11 }, "cls", "warn"],
    [{ cls: 0.26 }, "cls", "fail"],
    [{ performanceScore: 90 }, "performance_score", "pass"],
    [{ performanceScore: 89 }, "performance_score", "warn"],
    [{ performanceScore: 49 }, "performance_score", "fail"],
    [{ performanceScore: null }, "performance_score", "unknown"],
  ])("%j → %s is %s", (over, id, verdict) => {
    expect(byId(speed(over), id).verdict).toBe(verdict);
  });

  it("says where the figure came from", () => {
    expect(byId(speed({ lcpMs: 3200 }), "lcp").evidence).toBe(
      "Your page's main content appears after 3.2 s (from real visitors' phones); Google counts up to 2.5 s as good.",
    );
  });

  it("is unknown, never fail, when PageSpeed failed", () => {
    for (const c of pageSpeedChecks({ status: "failed", reason: "timed out" })) expect(c.verdict).toBe("unknown");
  });
});

describe("rank", () => {
  const rank = (mapPosition: number | null, organicPosition: number | null): RankInput => ({
    status: "ok",
    keyword: "plumber",
    area: "Springfield, IL",
    mapPosition,
    mapResultsChecked: 20,
    organicPosition,
    organicResultsChecked: 100,
  });

  it.each([
    [1, 1, "pass", "pass"],
    [3, 10, "pass", "pass"],
    [4, 11, "warn", "warn"],
    [null, null, "fail", "fail"],
  ])("map %s, organic %s → %s, %s", (map, organic, mapVerdict, organicVerdict) => {
    expect(rankChecks(rank(map, organic)).map((c) => c.verdict)).toEqual([mapVerdict, organicVerdict]);
  });

  it("says not ranked only from a search that succeeded", () => {
    expect(rankChecks(rank(null, null))[1]!.evidence).toBe('Your website is not among the top 100 Google results for "plumber" in Springfield, IL.');
    expect(rankChecks({ status: "failed", reason: "HTTP 500" }).map((c) => c.verdict)).toEqual(["unknown", "unknown"]);
  });
});

describe("competitors", () => {
  const top = [
    { name: "A", rating: 4.8, reviewCount: 120 },
    { name: "B", rating: 4.6, reviewCount: 60 },
    { name: "C", rating: 4.4, reviewCount: null },
    { name: "D (4th, ignored)", rating: 1, reviewCount: 0 },
  ];

  it.each([
    [4.6, 90, "pass", "pass"],
    [4.4, 45, "warn", "warn"],
    [4.2, 44, "fail", "fail"],
  ])("rating %d, %i reviews against an average of 4.6 and 90", (rating, reviewCount, ratingVerdict, reviewsVerdict) => {
    const checks = competitorChecks({ status: "found", listing: { ...listing, rating, reviewCount } }, { status: "ok", competitors: top });
    expect(checks.map((c) => c.verdict)).toEqual([ratingVerdict, reviewsVerdict]);
    expect(checks[0]!.evidence).toContain("A, B, C");
  });

  it.each([
    [{ status: "found", listing } as const, { status: "ok", competitors: [] } as const],
    [{ status: "found", listing } as const, { status: "failed", reason: "HTTP 429" } as const],
    [{ status: "not_found", candidates: 0 } as const, { status: "ok", competitors: top } as const],
  ])("is unknown without both sides (%j, %j)", (found, competitors) => {
    expect(competitorChecks(found, competitors).map((c) => c.verdict)).toEqual(["unknown", "unknown"]);
  });
});

describe("runChecks", () => {
  it("gives every check one verdict, in every section", () => {
    const checks = runChecks({
      page: { status: "fetched", facts: facts() },
      listing: { status: "found", listing },
      pageSpeed: { status: "ok", performanceScore: 95, lcpMs: 1800, inpMs: 150, cls: 0.05, source: "field" },
      rank: { status: "ok", keyword: "plumber", area: "Springfield", mapPosition: 2, mapResultsChecked: 20, organicPosition: 4, organicResultsChecked: 100 },
      competitors: { status: "ok", competitors: [{ name: "A", rating: 4.5, reviewCount: 50 }] },
    });
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
    expect(checks.length).toBe(32);
    expect(checks.filter((c) => c.verdict !== "pass")).toEqual([]);
  });
});

describe("keepGoodResult", () => {
  it.each([
    [{ status: "ok", position: 3 }, { status: "failed" }, { status: "ok", position: 3 }],
    [{ status: "ok", position: 3 }, { status: "ok", position: 5 }, { status: "ok", position: 5 }],
    [{ status: "failed" }, { status: "failed" }, { status: "failed" }],
    [null, { status: "failed" }, { status: "failed" }],
  ])("stored %j, then %j → %j", (stored, next, kept) => {
    expect(keepGoodResult<{ status: string; position?: number }>(stored, next)).toEqual(kept);
  });
});
