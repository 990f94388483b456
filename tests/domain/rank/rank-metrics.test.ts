// Tests rank results and their figures: finding the business, ARP/ATRP/SoLV, bands, comparison, competitors and CSV —
// above all that a failed search is never counted as "not ranked".
import { describe, it, expect } from "vitest";
import { failed, found, miss, pending } from "./point-results";
import { itReturns, itReturnsEqual } from "../each";
import {
  METRIC_TOOLTIPS,
  compareScans,
  findOrganicRank,
  findRank,
  gridMetrics,
  rankBand,
  scanPointsCsv,
  topCompetitors,
  type LocalResult,
} from "../../../worker/features/rank/rules/metrics";


function listings(ids: string[]): LocalResult[] {
  return ids.map((id, i) => ({ position: i + 1, place_id: id, title: `Biz ${id}` }));
}

describe("findRank", () => {
  const twenty = listings(Array.from({ length: 20 }, (_, i) => `p${i + 1}`));

  itReturnsEqual("finds %s by place id", (placeId) => findRank(twenty, placeId), [
    ["p1", found(1)],
    ["p7", found(7)],
    ["p20", found(20)],
    ["elsewhere", miss],
    ["", miss],
  ]);

  it("matches the place id only, never the name", () => {
    expect(findRank([{ position: 1, place_id: "other", title: "Ace Plumbing" }], "ace")).toEqual(miss);
  });

  it("uses the provider's position, past 20 is not in the top 20", () => {
    expect(findRank([{ position: 21, place_id: "me" }], "me")).toEqual(miss);
    expect(findRank([{ position: 4, place_id: "me" }], "me")).toEqual(found(4));
  });

  it("falls back to the listing's order when the position is missing", () => {
    expect(findRank([{ place_id: "a" }, { place_id: "me" }], "me")).toEqual(found(2));
  });

  it("an empty page is a completed search that did not find the business", () => {
    expect(findRank([], "me")).toEqual(miss);
  });
});

describe("findOrganicRank", () => {
  const organic = [
    { position: 1, link: "https://www.yelp.com/biz/ace" },
    { position: 2, link: "https://blog.acme-plumbing.com/post" },
    { position: 3, link: "https://www.acme-plumbing.com/" },
    { position: 4, link: "https://notacme-plumbing.com/" },
  ];

  itReturnsEqual("finds %s by its host, subdomains included, never a look-alike", (website) => findOrganicRank(organic, website), [
    ["https://acme-plumbing.com", found(2)],
    ["www.acme-plumbing.com", found(2)],
    ["ACME-plumbing.com/contact", found(2)],
    ["notacme-plumbing.com", found(4)],
    ["plumbing.com", miss],
    ["", miss],
    ["http://", miss],
  ]);

  it("past 20 is not in the top 20", () => {
    expect(findOrganicRank([{ position: 25, link: "https://acme.com" }], "acme.com")).toEqual(miss);
  });
});

describe("gridMetrics", () => {
  it.each([
    { name: "all found", points: [found(1), found(2), found(3), found(6)], arp: 3, atrp: 3, solv: 75 },
    { name: "a miss counts as 21 in ATRP only", points: [found(1), found(5), miss, miss], arp: 3, atrp: 12, solv: 25 },
    { name: "found nowhere", points: [miss, miss, miss], arp: null, atrp: 21, solv: 0 },
    { name: "nothing completed yet", points: [pending, pending], arp: null, atrp: null, solv: null },
    { name: "every search failed", points: [failed, failed], arp: null, atrp: null, solv: null },
    { name: "no points", points: [], arp: null, atrp: null, solv: null },
    { name: "rank 3 is in the top 3, rank 4 is not", points: [found(3), found(4)], arp: 3.5, atrp: 3.5, solv: 50 },
  ])("$name", ({ points, arp, atrp, solv }) => {
    const m = gridMetrics(points);
    expect(m.arp).toBe(arp);
    expect(m.atrp).toBe(atrp);
    expect(m.solv).toBe(solv);
  });

  it("failed is not unranked: failed and pending points change no metric", () => {
    const completed = [found(2), found(10), miss];
    const clean = gridMetrics(completed);
    const withGaps = gridMetrics([failed, ...completed, pending, failed]);
    expect(withGaps).toEqual({ ...clean, failed: 2, pending: 1 });
    // Had the failures been written as misses, ATRP and SoLV would have moved.
    const wrong = gridMetrics([miss, ...completed, miss]);
    expect(wrong.atrp).not.toBe(withGaps.atrp);
    expect(wrong.solv).not.toBe(withGaps.solv);
  });

  it("counts each kind of point", () => {
    expect(gridMetrics([found(1), miss, miss, failed, pending])).toMatchObject({ found: 1, notFound: 2, failed: 1, pending: 1 });
  });

  it("each tooltip says the definition is Local Falcon's", () => {
    for (const text of Object.values(METRIC_TOOLTIPS)) expect(text).toContain("as Local Falcon defines it");
    expect(METRIC_TOOLTIPS.atrp).toContain("as 21");
    expect(METRIC_TOOLTIPS.solv).toContain("top 3");
  });
});

describe("rankBand", () => {
  itReturns("%o is %s", rankBand, [
    [found(1), "top3"],
    [found(3), "top3"],
    [found(4), "top10"],
    [found(10), "top10"],
    [found(11), "top20"],
    [found(20), "top20"],
    [miss, "not_found"],
    [failed, "failed"],
    [pending, "pending"],
  ]);
});

describe("compareScans", () => {
  it("reports the change in each metric and whether it is better", () => {
    const before = gridMetrics([found(5), found(9), miss, miss]); // arp 7, atrp 14, solv 0
    const after = gridMetrics([found(1), found(3), found(5), miss]); // arp 3, atrp 7.5, solv 50
    expect(compareScans(before, after)).toEqual({
      arp: { before: 7, after: 3, delta: -4, improved: true },
      atrp: { before: 14, after: 7.5, delta: -6.5, improved: true },
      solv: { before: 0, after: 50, delta: 50, improved: true },
    });
    expect(compareScans(after, before).solv).toEqual({ before: 50, after: 0, delta: -50, improved: false });
    expect(compareScans(after, before).arp.improved).toBe(false);
  });

  it("has no change where a scan has no figure, and no verdict on no change", () => {
    const none = gridMetrics([failed]);
    const some = gridMetrics([found(2)]);
    expect(compareScans(none, some).arp).toEqual({ before: null, after: 2, delta: null, improved: null });
    expect(compareScans(some, some).atrp).toEqual({ before: 2, after: 2, delta: 0, improved: null });
  });
});

describe("topCompetitors", () => {
  it("ranks the listings holding the top 3 by points, leaving out the business and failed points", () => {
    const results = [
      listings(["a", "me", "b", "c"]),
      listings(["a", "b", "c"]),
      listings(["b", "a", "me"]),
      null, // failed
      listings(["d", "a", "b"]),
    ];
    expect(topCompetitors(results, "me")).toEqual([
      { placeId: "a", title: "Biz a", top3Points: 4, firstPoints: 2 },
      { placeId: "b", title: "Biz b", top3Points: 4, firstPoints: 1 },
      { placeId: "d", title: "Biz d", top3Points: 1, firstPoints: 1 },
    ]);
    // c is fourth at the first point (not top 3 there) and third at the second: one point, no wins.
    expect(topCompetitors(results, "me", 10).map((c) => c.placeId)).toEqual(["a", "b", "d", "c"]);
  });

  it("an empty or failed grid has no competitors", () => {
    expect(topCompetitors([null, [], null], "me")).toEqual([]);
  });
});

describe("scanPointsCsv", () => {
  it("writes one row per point; a failed point says so and has no rank", () => {
    const csv = scanPointsCsv([
      { row: 0, col: 0, lat: 40.1234567891, lng: -74.5, result: found(2) },
      { row: 0, col: 1, lat: 40.1, lng: -74.4, result: miss },
      { row: 0, col: 2, lat: 40.1, lng: -74.3, result: failed },
    ]);
    expect(csv.split("\r\n")).toEqual([
      '"Row","Column","Latitude","Longitude","Status","Rank"',
      '"1","1","40.1234568","-74.5","Found","2"',
      '"1","2","40.1","-74.4","Not in the top 20",""',
      '"1","3","40.1","-74.3","Search failed",""',
      "",
    ]);
  });
});
