// Tests report content: the prompt, parsing the AI reply, the template fallback and display helpers.
import { describe, it, expect } from "vitest";
import { itReturns } from "../each";
import { CATEGORIES } from "../../../worker/domain/categories";
import { ReportContent, engagementForTitle, isReportGenerated, type ReportProspect } from "../../../worker/features/reports/rules/content";
import { companyBesideName, displayUrlForAd, formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { EMPTY_AI_RESPONSE, parseReportContent } from "../../../worker/features/reports/rules/parse";
import { buildReportPrompt } from "../../../worker/features/reports/rules/prompt";
import { templateReportContent } from "../../../worker/features/reports/rules/template";

const roofer: ReportProspect = {
  id: "p1",
  name: "Acme Roofing",
  company_name: "Acme Roofing LLC",
  description: "Roof repair and replacement for homes",
  area: "Austin, TX",
  keyword: "roofer in austin",
  tag: "Roofing",
};

function validContent() {
  return {
    metaSEO: { title: "Roofer in Austin | Acme", description: "Trusted roofing.", url: "https://acme.com", improvements: ["Keyword first"] },
    perfectAd: { title: "Austin Roofer", description: "Call now.", displayUrl: "www.acme roofing.com", targetUrl: "https://acme.com", improvements: ["Local"] },
    gmbArticles: [{ title: "Storm season", subtitle: "Be ready", targetKeywords: ["a", "b", "c"] }],
    blogStructures: [{ title: "Guide", sections: ["1", "2", "3", "4", "5"], targetKeywords: ["k1", "k2", "k3", "k4", "k5"] }],
    facebookPosts: [{ title: "Check your roof", content: "After a storm, look for missing shingles." }],
    seoPotential: { score: 72 },
  };
}

describe("buildReportPrompt", () => {
  it("names the business, company, keyword, area, description and category", () => {
    const prompt = buildReportPrompt(roofer);
    for (const text of ["Acme Roofing", "Acme Roofing LLC", "roofer in austin", "Austin, TX", "Roof repair and replacement for homes", "Roofing"]) {
      expect(prompt).toContain(text);
    }
  });

  it("asks for every key with the spec's shapes and limits", () => {
    const prompt = buildReportPrompt(roofer);
    for (const key of ["metaSEO", "perfectAd", "gmbArticles", "blogStructures", "facebookPosts", "seoPotential", "keyword_potential", "business_relevance", "competition", "targetKeywords", "sections"]) {
      expect(prompt).toContain(key);
    }
    expect(prompt).toMatch(/under 60 characters/);
    expect(prompt).toMatch(/under 160 characters/);
    expect(prompt).toMatch(/exactly 3 Google My Business/);
    expect(prompt).toMatch(/exactly 5 section/);
    expect(prompt).toMatch(/1 to 100/);
    expect(prompt).toMatch(/JSON/);
  });

  it("derives the category from the description when the tag is missing", () => {
    expect(buildReportPrompt({ ...roofer, tag: null, description: "Drain and sewer plumbing" })).toContain("Category: Plumbing");
  });
});

describe("parseReportContent", () => {
  it("parses JSON inside a ```json code fence", () => {
    const result = parseReportContent("```json\n" + JSON.stringify(validContent()) + "\n```", roofer);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.content.gmbArticles[0]!.title).toBe("Storm season");
    expect(result.content.perfectAd.displayUrl).toBe("www.acme roofing.com");
  });

  it("parses a bare fence and plain JSON alike", () => {
    expect(parseReportContent("```\n" + JSON.stringify(validContent()) + "\n```").ok).toBe(true);
    expect(parseReportContent(JSON.stringify(validContent())).ok).toBe(true);
  });

  it("finds the object when the model wraps it in a sentence", () => {
    expect(parseReportContent("Here is your report: " + JSON.stringify(validContent()) + " Enjoy!").ok).toBe(true);
  });

  it.each([[""], ["   \n"], ["```json\n```"]])("reports %j as empty", (raw) => {
    expect(parseReportContent(raw)).toEqual({ ok: false, reason: "empty", detail: EMPTY_AI_RESPONSE });
  });

  it.each([["{not json"], ["I cannot help with that."], ['{"metaSEO": {']])("reports %j as malformed", (raw) => {
    const result = parseReportContent(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toBe("malformed");
  });

  it("reports a GMB article with 2 keywords as a schema error naming the field", () => {
    const content = validContent();
    content.gmbArticles[0]!.targetKeywords = ["a", "b"];
    const result = parseReportContent(JSON.stringify(content));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("schema");
    expect(result.detail).toContain("targetKeywords");
  });

  it.each([
    ["a blog with 4 sections", (c: ReturnType<typeof validContent>) => void (c.blogStructures[0]!.sections = ["1", "2", "3", "4"])],
    ["no Facebook posts", (c: ReturnType<typeof validContent>) => void (c.facebookPosts = [])],
    ["a score of 0", (c: ReturnType<typeof validContent>) => void (c.seoPotential = { score: 0 })],
    ["a fractional score", (c: ReturnType<typeof validContent>) => void (c.seoPotential = { score: 72.5 })],
    ["a missing perfectAd", (c: ReturnType<typeof validContent>) => void delete (c as Partial<typeof c>).perfectAd],
  ])("rejects %s", (_label, mutate) => {
    const content = validContent();
    mutate(content);
    const result = parseReportContent(JSON.stringify(content));
    expect(result).toMatchObject({ ok: false, reason: "schema" });
  });

  it("fills a post's missing author, image and engagement", () => {
    const result = parseReportContent(JSON.stringify(validContent()), roofer);
    if (!result.ok) throw new Error(result.detail);
    const [post] = result.content.facebookPosts;
    expect(post!.author).toBe("Acme Roofing LLC");
    expect(post!.image).toBe("https://placehold.co/600x400?text=roofer%20in%20austin");
    expect(post!.likes).toBeGreaterThanOrEqual(18);
    expect(post!.likes).toBeLessThanOrEqual(42);
    expect(post!.comments).toBeGreaterThanOrEqual(4);
    expect(post!.comments).toBeLessThanOrEqual(11);
    expect(post!.shares).toBeGreaterThanOrEqual(3);
    expect(post!.shares).toBeLessThanOrEqual(9);
    expect(engagementForTitle("Check your roof")).toEqual({ likes: post!.likes, comments: post!.comments, shares: post!.shares });
  });

  it("uses the prospect name as author when there is no company name", () => {
    const result = parseReportContent(JSON.stringify(validContent()), { ...roofer, company_name: null });
    if (!result.ok) throw new Error(result.detail);
    expect(result.content.facebookPosts[0]!.author).toBe("Acme Roofing");
  });

  it("keeps the fields the model did give", () => {
    const content = validContent();
    content.facebookPosts = [{ title: "T", content: "C", author: "Bob", image: "https://img/x.png", likes: 3, comments: 0, shares: 1 } as never];
    const result = parseReportContent(JSON.stringify(content), roofer);
    if (!result.ok) throw new Error(result.detail);
    expect(result.content.facebookPosts[0]).toEqual({ title: "T", content: "C", author: "Bob", image: "https://img/x.png", likes: 3, comments: 0, shares: 1 });
  });

  it("completes the potential from the score", () => {
    const result = parseReportContent(JSON.stringify(validContent()));
    if (!result.ok) throw new Error(result.detail);
    expect(result.content.seoPotential.competition).toBe("Medium");
    expect(result.content.seoPotential.keyword_potential).toBeCloseTo(7.2);
  });
});

describe("engagementForTitle", () => {
  it("stays within the fallback ranges and varies across titles", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const { likes, comments, shares } = engagementForTitle(`Post number ${i}`);
      expect(likes).toBeGreaterThanOrEqual(18);
      expect(likes).toBeLessThanOrEqual(42);
      expect(comments).toBeGreaterThanOrEqual(4);
      expect(comments).toBeLessThanOrEqual(11);
      expect(shares).toBeGreaterThanOrEqual(3);
      expect(shares).toBeLessThanOrEqual(9);
      seen.add(likes);
    }
    expect(seen.has(18)).toBe(true);
    expect(seen.has(42)).toBe(true);
  });
});

describe("templateReportContent", () => {
  it("passes the ReportContent schema", () => {
    expect(ReportContent.safeParse(templateReportContent(roofer)).success).toBe(true);
  });

  it("is deterministic", () => {
    expect(templateReportContent(roofer)).toEqual(templateReportContent({ ...roofer }));
  });

  it("produces 3 GMB ideas, 3 blogs of 5 sections and 3 Facebook posts for the trade and area", () => {
    const content = templateReportContent(roofer);
    expect(content.gmbArticles).toHaveLength(3);
    expect(content.blogStructures).toHaveLength(3);
    expect(content.facebookPosts).toHaveLength(3);
    for (const blog of content.blogStructures) expect(blog.sections).toHaveLength(5);
    expect(content.blogStructures[0]!.targetKeywords[0]).toBe("roofer in austin");
    const text = JSON.stringify(content);
    expect(text).toContain("Austin");
    expect(text).toMatch(/shingles/);
    expect(text).not.toMatch(/lorem|undefined|\bnull\b/i);
    expect(new Set(content.facebookPosts.map((p) => p.title)).size).toBe(3);
  });

  it("builds the ad's display URL from the business name and scores the potential 85", () => {
    const content = templateReportContent(roofer);
    expect(content.perfectAd.displayUrl).toBe("www.acmeroofingllc.com");
    expect(content.perfectAd.targetUrl).toBe("https://www.acmeroofingllc.com");
    expect(content.seoPotential.score).toBe(85);
    expect(content.facebookPosts.every((p) => p.author === "Acme Roofing LLC")).toBe(true);
  });

  it("writes different content for different trades", () => {
    const plumber = templateReportContent({ ...roofer, name: "Pipe Pros", company_name: null, description: "Plumbing", keyword: "plumber in austin", tag: "Plumbing" });
    expect(JSON.stringify(plumber)).toMatch(/drains|water heater/);
    expect(JSON.stringify(plumber)).not.toMatch(/shingles/);
  });

  it.each(CATEGORIES.map((category) => [category]))("keeps meta tags within limits and passes the schema for %s", (category) => {
    const content = templateReportContent({
      name: "The Extraordinarily Long Named Family Owned Home Services Company of Greater Springfield",
      description: "",
      area: "Springfield Township Metropolitan Area, Massachusetts, United States",
      keyword: "best emergency residential service contractor near springfield township",
      tag: category,
    });
    expect(content.metaSEO.title.length).toBeLessThan(60);
    expect(content.metaSEO.description.length).toBeLessThan(160);
    expect(content.metaSEO.title.length).toBeGreaterThan(10);
    expect(ReportContent.safeParse(content).success).toBe(true);
    expect(JSON.stringify(content)).not.toMatch(/undefined/);
  });

  it("writes meta tags that lead with the keyword and keep whole sentences", () => {
    const { metaSEO } = templateReportContent(roofer);
    expect(metaSEO.title).toBe("Roofer in Austin | Acme Roofing LLC");
    expect(metaSEO.description.startsWith("Acme Roofing LLC offers trusted roofing in Austin, TX.")).toBe(true);
    expect(metaSEO.description.endsWith("Call today to schedule service.")).toBe(true);
  });

  it("takes the trade of an Other business from its keyword", () => {
    const content = templateReportContent({ name: "Key Co", description: "Locks", area: "Reno, NV", keyword: "locksmith in reno", tag: "Other" });
    expect(content.gmbArticles[0]!.title).toBe("Locksmith in Reno: What Homeowners Should Know");
  });

  it("asks every customer for a review, never only the happy ones (Google forbids selective asking; issue 39)", () => {
    const fewReviews = { id: "review_count", section: "gbp", verdict: "fail", evidence: "9 reviews" } as const;
    const findings = { overall: 40, siteUrl: null, currentTitle: null, currentDescription: null, noWebsite: false, rating: 4.2, reviewCount: 9, mapPosition: null, organicPosition: null, keyword: null, competitors: [], gaps: [fewReviews], seen: [fewReviews], noData: [] };
    const article = templateReportContent(roofer, findings as never).gmbArticles.find((a) => a.title.includes("Tell Us How We Did"))!;
    expect(article.subtitle).toBe("A post asking your customers for a Google review.");
    expect(JSON.stringify(templateReportContent(roofer, findings as never))).not.toMatch(/\b(happy|satisfied|delighted) (customers|clients)\b/i);
  });

  it("falls back sensibly with an empty area, keyword and unknown tag", () => {
    const content = templateReportContent({ name: "Bob's Bakery", description: "Bakery and cakes", area: "", keyword: "", tag: "Baking" });
    expect(ReportContent.safeParse(content).success).toBe(true);
    expect(content.perfectAd.displayUrl).toBe("www.bobsbakery.com");
    expect(JSON.stringify(content)).toContain("your area");
  });
});

describe("isReportGenerated", () => {
  const lists = { gmb_articles: [], blog_structures: [], facebook_posts: [] };
  it.each([
    ["flagged and all lists present", { content_generated: true, ...lists }, true],
    ["not flagged", { content_generated: false, ...lists }, false],
    ["missing GMB articles", { content_generated: true, ...lists, gmb_articles: null }, false],
    ["missing blog structures", { content_generated: true, ...lists, blog_structures: undefined }, false],
    ["missing Facebook posts", { content_generated: true, ...lists, facebook_posts: null }, false],
  ])("%s → %s", (_label, report, expected) => {
    expect(isReportGenerated(report)).toBe(expected);
  });
});

describe("displayUrlForAd", () => {
  it("shows spaces as underscores", () => {
    expect(displayUrlForAd("www.acme roofing co.com")).toBe("www.acme_roofing_co.com");
    expect(displayUrlForAd("www.acme.com")).toBe("www.acme.com");
  });
});

describe("companyBesideName", () => {
  it.each([
    ["Ridge Line Roofing", "Ridge Line Roofing", ""],
    ["Ridge Line Roofing", "  ridge line roofing ", ""],
    ["Ridge Line Roofing", "", ""],
    ["Ridge Line Roofing", null, ""],
    ["Ridge Line Roofing", "Ridge Line LLC", "Ridge Line LLC"],
  ])("%s with company %j shows %j beside the name", (name, company, shown) => {
    expect(companyBesideName(name, company)).toBe(shown);
  });
});

describe("formatLongUsDate", () => {
  itReturns("%s → %j", formatLongUsDate, [
    ["2026-11-21T18:36:00.000Z", "November 21, 2026"],
    ["2026-01-01T00:00:00Z", "January 1, 2026"],
    ["2026-12-31T23:59:59Z", "December 31, 2026"],
    ["2026-03-05 23:30:00", "March 5, 2026"],
    ["2026-07-04", "July 4, 2026"],
    ["not a date", ""],
  ]);
});

describe("links the model writes", () => {
  const hostile = [
    "javascript:window.__xss=1",
    "JavaScript:alert(1)",
    " java\tscript:alert(1)",
    "data:text/html,<script>window.__xss=1</script>",
    "vbscript:msgbox(1)",
    "&#106;avascript:alert(1)",
  ];
  it.each(hostile)("keeps only http(s) or scheme-less links: %j is dropped from display, target and canonical URLs", (link) => {
    const content = validContent();
    content.metaSEO.url = link;
    content.perfectAd.displayUrl = link;
    content.perfectAd.targetUrl = link;
    const result = parseReportContent(JSON.stringify(content), roofer);
    if (!result.ok) throw new Error(result.detail);
    const text = JSON.stringify(result.content);
    expect(text).not.toMatch(/javascript:|data:text|vbscript:|&#106;/i);
  });

  it("keeps http(s) and display-only links as the model wrote them", () => {
    const content = validContent();
    content.perfectAd.displayUrl = "acme.com/roofing";
    content.perfectAd.targetUrl = "http://acme.com/roofing";
    const result = parseReportContent(JSON.stringify(content), roofer);
    if (!result.ok) throw new Error(result.detail);
    expect(JSON.stringify(result.content)).toContain("acme.com/roofing");
    expect(JSON.stringify(result.content)).toContain("http://acme.com/roofing");
  });
});
