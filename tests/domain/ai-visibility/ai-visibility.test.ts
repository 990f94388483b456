// AI Visibility's pure rules (issue 29) with exact numbers: the Wilson interval, the suggested questions, who an answer
// names (the listing-match rules), the figures per question and engine, the equal-weight overall figure, the cited
// domains, the alert rule and the template "What to do".
import { describe, expect, it } from "vitest";
import type { QuestionEngineFigure } from "../../../worker/features/ai-visibility/rules/contract";
import {
  actionTemplates,
  countCitedDomains,
  findNamedBusinesses,
  intervalsSeparate,
  overallFigure,
  questionEngineFigure,
  registrableDomain,
  suggestQuestions,
  wilson,
  type FigureAnswer,
} from "../../../worker/features/ai-visibility/rules/ai-visibility";

const close = (got: { low: number; high: number }, low: number, high: number) => {
  expect(got.low).toBeCloseTo(low, 6);
  expect(got.high).toBeCloseTo(high, 6);
};

describe("wilson", () => {
  it("gives the 95% Wilson score interval", () => {
    close(wilson(2, 5), 0.1176182311592533, 0.769280067791163);
    close(wilson(3, 10), 0.10778928748621183, 0.6032267800204347);
  });

  it("stays inside 0..1 and is not zero-width at 0 of 5 or 5 of 5", () => {
    expect(wilson(0, 5)).toEqual({ low: 0, high: expect.closeTo(0.43449149475208104, 6) });
    expect(wilson(5, 5)).toEqual({ low: expect.closeTo(0.5655085052479191, 6), high: 1 });
  });

  it("with no answers says nothing is known", () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe("intervalsSeparate (the alert rule)", () => {
  it("is true only when the intervals no longer overlap", () => {
    expect(intervalsSeparate(wilson(0, 5), wilson(5, 5))).toBe(true);
    expect(intervalsSeparate(wilson(2, 5), wilson(3, 5))).toBe(false);
    expect(intervalsSeparate({ low: 0.1, high: 0.4 }, { low: 0.4, high: 0.9 })).toBe(false);
  });
});

describe("suggestQuestions", () => {
  it("asks what a customer in the city asks, trade-aware", () => {
    expect(suggestQuestions({ category: "Plumbing", city: "Austin", region: "TX", postalCode: "78701" })).toEqual([
      "best plumber in Austin",
      "emergency plumber near me",
      "who installs water heaters in Austin TX",
      "plumber with good reviews in 78701",
      "most trusted plumber in Austin",
    ]);
  });

  it("asks about price for trades nobody calls at night, and takes a free-text trade", () => {
    expect(suggestQuestions({ category: "Landscaping & Lawn Care", city: "Mesa" })).toEqual([
      "best landscaper in Mesa",
      "affordable landscaper near me",
      "who does lawn care in Mesa",
      "landscaper with good reviews in Mesa",
      "most trusted landscaper in Mesa",
    ]);
    expect(suggestQuestions({ category: "Tree Service", city: "Boise", region: "ID" })[2]).toBe("who is a good tree service in Boise ID");
  });

  it("reads a trade given as a keyword through its category: a roofer, never 'a good roofing'", () => {
    const asked = suggestQuestions({ category: "roofing", city: "Austin", region: "TX" });
    expect(asked).toEqual([
      "best roofer in Austin",
      "emergency roofer near me",
      "who replaces roofs in Austin TX",
      "roofer with good reviews in Austin",
      "most trusted roofer in Austin",
    ]);
    expect(asked.join(" ")).not.toMatch(/good roofing/);
    expect(suggestQuestions({ category: "emergency plumbing", city: "Austin" })[0]).toBe("best plumber in Austin");
  });
});

const SELF = { name: "Ridge Plumbing", website: "https://www.ridgeplumbing.com/", phone: "(512) 555-0100" };
const DESERT = { name: "Desert Sun Plumbing & Air", website: "desertsun.com", phone: "512-555-0142" };
const RADIANT = { name: "Radiant Plumbing & Air Conditioning", website: null, phone: null };

describe("findNamedBusinesses", () => {
  it("names the business and its competitors in order of first appearance, and other businesses listed as not local", () => {
    const text = [
      "Here are some options in Austin:",
      "",
      "1. **Radiant Plumbing & Air Conditioning** - same-day service.",
      "2. **Hill Country Plumbing Co** - family owned.",
      "3. **Ridge Plumbing LLC** - water heaters.",
      "",
      "**Tips for choosing**: check licensing.",
      "- Check their licensing before hiring",
    ].join("\n");
    expect(findNamedBusinesses(text, [DESERT, RADIANT], SELF)).toEqual([
      { name: "Radiant Plumbing & Air Conditioning", self: false, local: true },
      { name: "Hill Country Plumbing Co", self: false, local: false },
      { name: "Ridge Plumbing", self: true, local: true },
    ]);
  });

  it("finds a name in prose, and a close name only with its website or phone beside it", () => {
    expect(findNamedBusinesses("Well-reviewed plumbers include S&D Plumbing and Ridge Plumbing.", [{ name: "S & D Plumbing" }], SELF)).toEqual([
      { name: "S & D Plumbing", self: false, local: true },
      { name: "Ridge Plumbing", self: true, local: true },
    ]);
    const byWebsite = "1. **Ridge Plumbing Austin** - see ridgeplumbing.com\n2. **Desert Sun Plumbing** - call (512) 555-0142";
    expect(findNamedBusinesses(byWebsite, [DESERT], SELF)).toEqual([
      { name: "Ridge Plumbing", self: true, local: true },
      { name: "Desert Sun Plumbing & Air", self: false, local: true },
    ]);
    // Without the phone the close name is not the competitor: it is listed as another business.
    expect(findNamedBusinesses("1. **Desert Sun Plumbing** - family owned", [DESERT], SELF)).toEqual([{ name: "Desert Sun Plumbing", self: false, local: false }]);
    // A cited source on the business's domain stands for its website.
    expect(findNamedBusinesses("- **Ridge Plumbing Austin**: fast", [], SELF, [{ url: "https://ridgeplumbing.com/water-heaters" }])).toEqual([{ name: "Ridge Plumbing", self: true, local: true }]);
  });

  it("a longer competitor name is not also the business", () => {
    expect(findNamedBusinesses("Try Ridge Plumbing & Drain for drains.", [{ name: "Ridge Plumbing & Drain" }], SELF)).toEqual([{ name: "Ridge Plumbing & Drain", self: false, local: true }]);
  });

  it("names nobody in an answer that names nobody", () => {
    expect(findNamedBusinesses("Look for a licensed plumber with good reviews.", [DESERT], SELF)).toEqual([]);
  });
});

const named = (...names: string[]) => names.map((n) => ({ name: n, self: n === "Ridge Plumbing", local: n !== "Other Co Plumbing" }));

describe("questionEngineFigure", () => {
  it("k of n answers, failed ones left out, with position, share of voice and own-site citations", () => {
    const answers: FigureAnswer[] = [
      { id: "a1", ok: true, named: named("Ridge Plumbing", "Desert Sun Plumbing & Air"), sources: [{ url: "https://www.ridgeplumbing.com/about" }] },
      { id: "a2", ok: true, named: named("Desert Sun Plumbing & Air", "Other Co Plumbing", "Ridge Plumbing"), sources: [{ url: "https://www.yelp.com/x" }] },
      { id: "a3", ok: true, named: named("Desert Sun Plumbing & Air"), sources: [{ url: "https://maps.google.com/?cid=123&hl=en" }] },
      { id: "a4", ok: true, named: [], sources: [] },
      { id: "a5", ok: true, named: named("Desert Sun Plumbing & Air"), sources: [] },
      { id: "a6", ok: false, named: named("Ridge Plumbing"), sources: [{ url: "https://ridgeplumbing.com" }] },
    ];
    const figure = questionEngineFigure(answers, { website: "ridgeplumbing.com", gbpUrl: "https://maps.google.com/?cid=123" });
    expect(figure).toEqual({
      k: 2,
      n: 5,
      mention_rate: 0.4,
      low: expect.closeTo(0.1176182311592533, 6),
      high: expect.closeTo(0.769280067791163, 6),
      failed: 1,
      avg_position: 2,
      // Local mentions: Ridge 2 + Desert Sun 4 (Other Co is not local) → 2 / 6.
      share_of_voice: 2 / 6,
      own_site_cited: 2,
      answerIds: ["a1", "a2", "a3", "a4", "a5", "a6"],
      named: [
        { name: "Desert Sun Plumbing & Air", mentions: 4, local: true, self: false },
        { name: "Ridge Plumbing", mentions: 2, local: true, self: true },
        { name: "Other Co Plumbing", mentions: 1, local: false, self: false },
      ],
    });
  });

  it("a figure whose every call failed has n = 0 and the whole 0..1 interval, never 'not mentioned' at 0%", () => {
    const figure = questionEngineFigure([{ id: "x", ok: false, named: [], sources: [] }], {});
    expect(figure).toMatchObject({ k: 0, n: 0, mention_rate: null, low: 0, high: 1, failed: 1, avg_position: null, share_of_voice: null });
  });
});

const fig = (k: number, n: number, local: number): QuestionEngineFigure => ({
  questionId: "q",
  question: "best plumber",
  engine: "chatgpt",
  k,
  n,
  mention_rate: n ? k / n : null,
  ...wilson(k, n),
  failed: 0,
  avg_position: k ? 1 : null,
  share_of_voice: local ? k / local : null,
  own_site_cited: 0,
  answerIds: [],
  named: [
    { name: "Ridge Plumbing", mentions: k, local: true, self: true },
    { name: "Desert Sun Plumbing", mentions: local - k, local: true, self: false },
  ],
});

describe("overallFigure", () => {
  it("weighs each question and engine equally, with a Wilson interval on Kish's effective sample", () => {
    const overall = overallFigure([fig(2, 5, 4), fig(5, 5, 10), fig(0, 3, 3)])!;
    // Mean of 0.4, 1 and 0; n_eff = 3² / (1/5 + 1/5 + 1/3) = 12.27.
    expect(overall.k).toBe(7);
    expect(overall.n).toBe(13);
    expect(overall.mention_rate).toBeCloseTo(0.4666666666666666, 9);
    close(overall, 0.23089740076803641, 0.7183290357853185);
    // Share of voice: mean of 2/4, 5/10, 0/3.
    expect(overall.share_of_voice).toBeCloseTo(1 / 3, 9);
  });

  it("with equal samples is the pooled figure", () => {
    const overall = overallFigure([fig(2, 5, 5), fig(4, 5, 5)])!;
    expect(overall.mention_rate).toBeCloseTo(0.6, 9);
    close(overall, wilson(6, 10).low, wilson(6, 10).high);
  });

  it("is null when no answer came back", () => {
    expect(overallFigure([fig(0, 0, 0)])).toBeNull();
  });
});

describe("countCitedDomains", () => {
  it("counts registrable domains once per answer, failed answers left out, with Gemini's redirect read by its title", () => {
    const domains = countCitedDomains(
      [
        { engine: "perplexity", ok: true, sources: [{ url: "https://www.angi.com/a" }, { url: "https://austin.angi.com/b" }, { url: "https://m.yelp.com/x" }] },
        { engine: "perplexity", ok: true, sources: [{ url: "https://www.angi.com/c" }] },
        { engine: "gemini", ok: true, sources: [{ url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc", title: "yelp.com" }] },
        { engine: "chatgpt", ok: false, sources: [{ url: "https://bbb.org/x" }] },
      ],
      (domain) => (domain === "angi.com" ? false : domain === "yelp.com" ? true : null),
    );
    expect(domains).toEqual([
      { domain: "angi.com", answers: 2, of: 3, engines: ["perplexity"], missing: true },
      { domain: "yelp.com", answers: 2, of: 3, engines: ["perplexity", "gemini"], missing: false },
    ]);
  });

  it("reads registrable domains", () => {
    expect(registrableDomain("https://www.bbc.co.uk/news")).toBe("bbc.co.uk");
    expect(registrableDomain("Yelp.com")).toBe("yelp.com");
    expect(registrableDomain("not a url")).toBeNull();
  });
});

describe("actionTemplates", () => {
  it("grounds each step in the scan: where to get listed, the review gap, pages to cite, the audit's gaps", () => {
    const figures = [{ ...fig(0, 5, 5), engine: "perplexity" as const, named: [{ name: "Desert Sun Plumbing", mentions: 5, local: true, self: false }] }, { ...fig(0, 5, 3), engine: "perplexity" as const, named: [{ name: "Desert Sun Plumbing", mentions: 3, local: true, self: false }] }];
    const items = actionTemplates({
      businessName: "Ridge Plumbing",
      overall: overallFigure(figures),
      figures,
      citedDomains: [{ domain: "angi.com", answers: 7, of: 10, engines: ["perplexity"], missing: true }],
      ownReviews: 35,
      competitorReviews: [{ name: "Desert Sun Plumbing", reviews: 240 }],
      auditGaps: ["no LocalBusiness schema on the home page"],
    });
    expect(items).toEqual([
      "Get listed on angi.com: Perplexity cited angi.com in 7 of 10 answers, and Ridge Plumbing is not listed there.",
      "Close the review gap: Desert Sun Plumbing, named in 8 answers, has 240 Google reviews to your 35. Ask every finished job for a review.",
      "Perplexity never named Ridge Plumbing in these answers: being listed on the sites they cite is the way in.",
      "Give the assistants a page to cite: none of the 10 answers cited your website or Google profile. Add a page per service and city with your name, address and phone.",
      "Fix what the audit found: no LocalBusiness schema on the home page.",
    ]);
  });
});
