// The Citation Tracker's pure rules (issue 27): address splitting, the five fields compared with the audit's matching
// rules (DBA vs LLC, "Suite 300" vs "#300", phone formats, call-tracking numbers, redirecting websites), whether a
// listing is this business at all, the verdict per source, the fix list's order, the history's wording and the CSV.
import { describe, expect, it } from "vitest";
import { CITATION_SOURCES, SEARCHED_SOURCES, onSource, sourceById } from "../../../worker/features/citations/rules/sources";
import { expectedDetails, expectedSourcesText, citationEstimate, compareFields, isTheBusiness, judgeSource, splitAddress, type ExpectedBusiness, type ListingFields } from "../../../worker/features/citations/rules/citations";
import { citationsCsv, diffScans, fixList, listingsSentence, summarize } from "../../../worker/features/citations/rules/summary";

const EXPECTED: ExpectedBusiness = {
  name: "Smith Holdings LLC dba Joe's Plumbing",
  street: "1200 Main St, Suite 300",
  city: "Austin",
  region: "TX",
  zip: "78701",
  phone: "5125550142",
  website: "https://joesplumbing.example",
  knownPhones: ["5125550199"],
  knownHosts: ["joes-plumbing.example"],
};

const listing = (over: Partial<ListingFields> = {}): ListingFields => ({ name: "Joe's Plumbing", street: "1200 Main St #300", city: "Austin", region: "TX", zip: "78701", phones: ["5125550142"], website: "joesplumbing.example", trackingMarked: false, ...over });
const yelp = sourceById("yelp")!;

describe("the sources table", () => {
  it("has the sources the issue names, each with a kind and a claim link; aggregators and Apple claim no lookup", () => {
    expect(CITATION_SOURCES.length).toBeGreaterThanOrEqual(28);
    for (const name of ["Google Business Profile", "Bing Places", "Apple Business Connect", "Facebook", "Yelp", "BBB", "Yellowpages", "Superpages", "MapQuest", "Manta", "Hotfrog", "Nextdoor", "Foursquare", "Angi", "HomeAdvisor", "Thumbtack", "Houzz", "Porch", "BuildZoom", "Networx", "Three Best Rated", "Chamber of Commerce", "Brownbook", "EZlocal", "Data Axle", "Neustar Localeze"]) {
      expect(CITATION_SOURCES.map((s) => s.name)).toContain(name);
    }
    for (const s of CITATION_SOURCES) expect(s.claimUrl).toMatch(/^https:\/\//);
    expect(CITATION_SOURCES.filter((s) => s.kind === "data_aggregator").every((s) => s.lookup === "manual")).toBe(true);
    expect(sourceById("apple")!.lookup).toBe("manual");
    expect(citationEstimate().searches).toBe(SEARCHED_SOURCES.length * 2);
  });

  it.each([
    ["https://www.yelp.com/biz/x", true],
    ["https://m.yelp.com/biz/x", true],
    ["https://notyelp.com/biz/x", false],
    ["https://yelp.com.evil.example/biz", false],
  ])("onSource(yelp, %s) = %s", (url, on) => expect(onSource(yelp, url)).toBe(on));
});

describe("splitAddress", () => {
  it.each([
    ["1200 Main St, Suite 300, Austin, TX 78701", { street: "1200 Main St, Suite 300", city: "Austin", region: "TX", zip: "78701" }],
    ["1200 Main Street #300, Austin, TX 78701, USA", { street: "1200 Main Street #300", city: "Austin", region: "TX", zip: "78701" }],
    ["55 Oak Hill Dr, Austin TX 78749", { street: "55 Oak Hill Dr", city: "Austin", region: "TX", zip: "78749" }],
    ["Austin, TX", { street: null, city: "Austin", region: "TX", zip: null }],
  ])("%s", (text, parts) => expect(splitAddress(text)).toEqual(parts));
});

describe("compareFields", () => {
  it.each<[string, Partial<ListingFields>, string, string]>([
    ["a DBA's name against its legal name", { name: "Joe's Plumbing LLC" }, "name", "match"],
    ['"#300" against "Suite 300"', { street: "1200 Main Street #300" }, "street", "match"],
    ['"Ste 300" against "Suite 300"', { street: "1200 Main St Ste 300" }, "street", "match"],
    ["an old street", { street: "900 Old Mill Rd" }, "street", "differs"],
    ["another ZIP", { zip: "78745" }, "city_zip", "differs"],
    ["a dotted phone", { phones: ["5125550142"] }, "phone", "match"],
    ["an old phone", { phones: ["5125550100"] }, "phone", "differs"],
    ["the site's own call-tracking number", { phones: ["5125550199"] }, "phone", "tracking"],
    ["a page that says its number is a tracking number", { phones: ["5125550777"], trackingMarked: true }, "phone", "tracking"],
    ["a website host the site redirects from", { website: "https://www.joes-plumbing.example/" }, "website", "match"],
    ["another website", { website: "https://other.example" }, "website", "differs"],
    ["no website on the listing", { website: null }, "website", "missing"],
  ])("%s", (_, over, field, match) => {
    expect(compareFields(EXPECTED, listing(over), yelp)[field as "name"].match).toBe(match);
  });

  it("takes a different number on a source that assigns call-tracking numbers as tracking, with the reason", () => {
    const view = compareFields(EXPECTED, listing({ phones: ["5125550777"] }), sourceById("angi")!);
    expect(view.phone).toMatchObject({ match: "tracking", listing: "(512) 555-0777", expected: "(512) 555-0142" });
    expect(view.phone.note).toMatch(/call-tracking number Angi assigns/);
  });
});

describe("isTheBusiness", () => {
  it.each<[string, Partial<ListingFields>, boolean]>([
    ["the same name and phone", {}, true],
    ["the same name, an old phone, the same city", { phones: ["5125550100"] }, true],
    ["the same phone under another business's name", { name: "Smith Roofing Co" }, false],
    ["the same name in another city with another phone", { city: "Dallas", phones: ["2145550100"], website: null }, false],
    ["no name", { name: null }, false],
  ])("%s → %s", (_, over, same) => expect(isTheBusiness(EXPECTED, listing(over))).toBe(same));
});

describe("judgeSource", () => {
  const at = "2026-11-26T10:00:00.000Z";
  const page = (over: Partial<ListingFields> = {}) => ({ ok: true as const, fields: listing(over) });
  it.each([
    ["one agreeing listing", [{ url: "https://www.yelp.com/a", title: "", snippet: "", page: page() }], null, "consistent"],
    ["one listing with an old address", [{ url: "https://www.yelp.com/a", title: "", snippet: "", page: page({ street: "900 Old Mill Rd" }) }], null, "inconsistent"],
    ["two listings", [{ url: "https://www.yelp.com/a", title: "", snippet: "", page: page() }, { url: "https://www.yelp.com/b", title: "", snippet: "", page: page({ phones: ["5125550100"] }) }], null, "duplicate"],
    ["a 403 page", [{ url: "https://www.yelp.com/a", title: "Joe's Plumbing - Yelp", snippet: "Plumbers", page: { ok: false as const, reason: "the site answered 403" } }], null, "unknown"],
    ["a failed search", [], "the search provider answered 500", "unknown"],
    ["nothing found", [], null, "not_found"],
  ])("%s → %s", (_, candidates, failed, verdict) => {
    const r = judgeSource(yelp, EXPECTED, [], { searches: 2, searchFailed: failed, candidates, checkedAt: at });
    expect(r.verdict).toBe(verdict);
    if (verdict === "not_found") expect(r.evidence).toBe("Not found after 2 searches on 2026-11-26.");
  });

  it("stands on the search result's snippet when the page shows nothing, and says so", () => {
    const r = judgeSource(yelp, EXPECTED, [], {
      searches: 2,
      searchFailed: null,
      checkedAt: at,
      candidates: [{ url: "https://www.yelp.com/a", title: "Joe's Plumbing - Austin, TX - Yelp", snippet: "Joe's Plumbing, 1200 Main St Ste 300, Austin, TX 78701 · (512) 555-0142", page: { ok: true, fields: listing({ name: null, street: null, city: null, zip: null, phones: [] }) } }],
    });
    expect(r.verdict).toBe("consistent");
    expect(r.listings[0]!.from).toBe("snippet");
    expect(r.evidence).toMatch(/from the search result/);
  });
});

describe("the fix list, summary and history", () => {
  const at = "2026-11-26T10:00:00.000Z";
  const result = (id: string, fields: Partial<ListingFields> | null, competitors: { name: string; phone: string }[] = []) =>
    judgeSource(sourceById(id)!, EXPECTED, competitors, {
      searches: 2,
      searchFailed: null,
      checkedAt: at,
      candidates: [
        ...(fields ? [{ url: `https://www.${sourceById(id)!.domain}/x`, title: "", snippet: "", page: { ok: true as const, fields: listing(fields) } }] : []),
        ...competitors.map((c, i) => ({ url: `https://www.${sourceById(id)!.domain}/c${i}`, title: "", snippet: "", page: { ok: true as const, fields: listing({ name: c.name, phones: [c.phone.replace(/\D/g, "")], city: "Austin" }) } })),
      ],
    });
  const rivals = [{ name: "Austin Pro Plumbing", phone: "(512) 555-0110" }, { name: "Capital City Plumbers", phone: "(512) 555-0111" }];

  it("orders wrong data on the bigger sources first, then gaps, then big sources to add, then the aggregators", () => {
    const results = [result("manta", { street: "900 Old Mill Rd" }), result("yelp", { phones: ["5125550100"] }), result("houzz", null, rivals), result("facebook", null), result("bbb", {})];
    const fixes = fixList(results);
    expect(fixes.map((f) => `${f.kind}:${f.source}`)).toEqual(["correct:yelp", "correct:manta", "gap:houzz", "add:facebook", "aggregator:data-axle", "aggregator:localeze"]);
    expect(fixes[0]!.text).toBe('On Yelp, change the phone from "(512) 555-0100" to "(512) 555-0142".');
    expect(fixes[2]!.text).toBe("Add the business to Houzz: Austin Pro Plumbing and Capital City Plumbers are listed there, you are not.");
    const summary = summarize(results);
    expect(summary).toMatchObject({ checked: 5, listed: 3, consistent: 1, inconsistent: 2, not_found: 2, gaps: 1 });
    expect(summary.score).toBe(Math.round(50 * (3 / 5) + 50 * (1 / 3)));
    expect(listingsSentence(summary, results)).toBe("Found on 3 of 5 sources; 1 shows an old phone number; 1 more shows other outdated details; your competitors are on Houzz, you are not.");
  });

  it("says what changed between two scans", () => {
    const before = [result("yelp", { phones: ["5125550100"] }), result("facebook", null), result("bbb", {})];
    const after = [result("yelp", {}), result("facebook", {}), result("bbb", null)];
    expect(diffScans(before, after)).toEqual(["Yelp now shows your new phone number.", "Now listed on Facebook.", "No longer found on BBB."]);
  });

  it("writes a CSV row per source with the fields side by side", () => {
    const csv = citationsCsv([result("yelp", { phones: ["5125550100"] })]);
    expect(csv.split("\r\n")[1]).toContain('"Yelp","General directory","inconsistent","https://www.yelp.com/x"');
    expect(csv).toContain('"(512) 555-0100","(512) 555-0142","differs"');
  });
});

describe("expectedDetails (issue 39): the business's own details first, the Google listing for what they lack", () => {
  const google = { address: "1200 Main St, Suite 300, Austin, TX 78701", phone: "(512) 555-0142", website: "https://joesplumbing.example", at: "2026-11-20T15:00:00.000Z" };
  it("takes the street from the listing when Business Settings has none, and says so", () => {
    expect(expectedDetails({ address: "Austin, TX", area: "Austin, TX", phone: "(512) 555-0199", website: null }, google)).toEqual({
      street: "1200 Main St, Suite 300",
      city: "Austin",
      region: "TX",
      zip: null,
      phone: "5125550199",
      website: "https://joesplumbing.example",
      from: { street: "google", city_zip: "own", phone: "own", website: "google" },
      googleAt: google.at,
    });
  });
  it("keeps the business's own street, and names no audit when nothing came from it", () => {
    const got = expectedDetails({ address: "9 Oak Ave, Austin, TX 78702", area: "Austin, TX", phone: "5125550199", website: "joes.example" }, google);
    expect(got).toMatchObject({ street: "9 Oak Ave", zip: "78702", from: { street: "own", city_zip: "own", phone: "own", website: "own" }, googleAt: null });
  });
  it("without a listing, leaves unknown what the business's own details lack", () => {
    const got = expectedDetails({ address: null, area: "Austin, TX", phone: null, website: null }, null);
    expect(got).toMatchObject({ street: null, city: "Austin", phone: null, website: null, from: { city_zip: "own" } });
    expect(expectedSourcesText({ name: "Joe's", ...got, knownPhones: [], knownHosts: [] }, "prospect")).toBe(
      "Compared with the prospect's details (name, city and ZIP). Not known, so not compared: street address, phone, website.",
    );
  });
});
