// The content suite's length rules as tables: shortening on a sentence boundary, each network's limits, hashtag caps,
// spoken length; and the social plan's exchange formats (CSV both ways, ICS) round-tripped.
import { describe, expect, it } from "vitest";
import {
  charCount,
  fitToNetwork,
  hashtagsIn,
  NETWORK_CHAR_LIMITS,
  NETWORK_HASHTAG_LIMITS,
  NETWORKS,
  postText,
  shortenToLimit,
  shortenToWords,
  spokenSeconds,
  type Network,
} from "../../../worker/features/content/rules/length";
import { gmbRules, GmbPostRequest } from "../../../worker/features/content/rules/gmb-generator";
import { moveDay, planFromCsv, planSlots, planToCsv, planToIcs, SocialPlanRequest, templatePlan, weekOfMonth, generatorLink } from "../../../worker/features/content/rules/social-plan";
import { fitScript, scriptSeconds, templateVideoScript, VideoScriptRequest } from "../../../worker/features/content/rules/video-script";
import { SocialPostsRequest, socialPostsRules } from "../../../worker/features/content/rules/social-posts";

const BUSINESS = { company_name: "Ridge Roofing", company_category: "Roofing", company_location: "Austin, TX", company_description: "Family-owned since 1998." };
const NOW = new Date("2026-12-05T10:00:00Z");

describe("shortenToLimit", () => {
  it.each([
    ["within the limit: unchanged", "Short text.", 50, "Short text.", false],
    ["exactly at the limit: unchanged", "12345", 5, "12345", false],
    ["cut after the last whole sentence", "One two. Three four. Five six seven.", 25, "One two. Three four.", true],
    ["a question or exclamation ends a sentence", "Ready? Call now! Then more words follow here.", 20, "Ready? Call now!", true],
    ["a line break ends a sentence", "First line\nSecond line is long", 20, "First line", true],
    ["no early sentence end: cut on a word with an ellipsis", "Alpha beta gamma delta epsilon zeta", 20, "Alpha beta gamma…", true],
    ["a decimal point is not a sentence end", "Costs 2.50 today and more words after that", 22, "Costs 2.50 today and…", true],
    ["emoji count as one character", "🏡🏡🏡 Home. More text here", 9, "🏡🏡🏡 Home.", true],
    ["a limit of 0 leaves nothing", "Anything.", 0, "", true],
  ])("%s", (_name, text, max, expected, shortened) => {
    const out = shortenToLimit(text, max);
    expect(out).toEqual({ text: expected, shortened });
    expect(charCount(out.text)).toBeLessThanOrEqual(max);
  });

  it("a sentence boundary too early (under a third of the room) gives way to a word cut", () => {
    expect(shortenToLimit("Hi. Then a long run of words without any stop at all", 30).text).toBe("Hi. Then a long run of words…");
  });
});

describe("fitToNetwork", () => {
  const long = (n: number) => Array.from({ length: n }, (_, i) => `Sentence number ${i + 1} is here.`).join(" ");
  it.each(NETWORKS.map((n) => [n] as [Network]))("%s: text and hashtags within its limit", (network) => {
    const fitted = fitToNetwork(network, long(400), ["#one", "#two", "#three", "#four", "#five", "#six"]);
    expect(charCount(postText(fitted.content, fitted.hashtags))).toBeLessThanOrEqual(NETWORK_CHAR_LIMITS[network]);
    expect(fitted.content.endsWith(".")).toBe(true);
  });

  it.each([
    ["x", 280, 3],
    ["instagram", 2200, 30],
    ["linkedin", 3000, 5],
    ["google-business", 1500, 0],
  ] as const)("%s: %i characters, at most %i hashtags", (network, limit, tags) => {
    const fitted = fitToNetwork(network, long(300), Array.from({ length: 40 }, (_, i) => `#t${i}`));
    expect(fitted.hashtags.length).toBe(tags);
    expect(charCount(postText(fitted.content, fitted.hashtags))).toBeLessThanOrEqual(limit);
    expect(fitted.notes.join(" ")).toMatch(/Shortened on a sentence boundary/);
  });

  it("counts the hashtags inside the text too: the text as posted holds at most the network's cap (issue 26)", () => {
    const inText = Array.from({ length: 36 }, (_, i) => `#tag${i}`).join(" ");
    const list = Array.from({ length: 8 }, (_, i) => `#list${i}`);
    for (const network of NETWORKS) {
      const fitted = fitToNetwork(network, `Spring tune-ups are open. ${inText}`, list);
      const posted = postText(fitted.content, fitted.hashtags);
      expect(hashtagsIn(posted).length, network).toBeLessThanOrEqual(NETWORK_HASHTAG_LIMITS[network]);
      expect(fitted.content).toBe("Spring tune-ups are open.");
    }
    expect(fitToNetwork("instagram", `Fresh look. ${inText}`, list).hashtags).toHaveLength(30);
  });

  it("hashtags inside sentences past the cap keep their word; Google Business keeps none", () => {
    const fitted = fitToNetwork("google-business", "Our #Austin crew cleans #gutters every fall.", ["#roof"]);
    expect(fitted).toMatchObject({ content: "Our Austin crew cleans gutters every fall.", hashtags: [] });
    expect(fitted.notes).toEqual(["Hashtags removed: Google Business posts do not use them."]);
    const facebook = fitToNetwork("facebook", "Our #Austin crew cleans #gutters.", ["#a", "#b", "#c", "#d", "#Austin"]);
    expect(facebook.hashtags).toEqual(["#a", "#b", "#c"]);
    expect(hashtagsIn(postText(facebook.content, facebook.hashtags))).toHaveLength(5);
  });

  it("leaves a post within limits as it is, with no notes", () => {
    expect(fitToNetwork("x", "Fresh gutters for winter.", ["#Austin"])).toEqual({ content: "Fresh gutters for winter.", hashtags: ["#Austin"], notes: [] });
  });
});

describe("spoken length", () => {
  it.each([
    ["", 0],
    ["one two three four five", 2],
    [Array(75).fill("word").join(" "), 30],
    [Array(76).fill("word").join(" "), 31],
  ])("%#: %s", (text, seconds) => expect(spokenSeconds(text)).toBe(seconds));

  it("shortenToWords keeps whole sentences within the word budget", () => {
    expect(shortenToWords("One two three. Four five six seven.", 5)).toEqual({ text: "One two three.", shortened: true });
    expect(shortenToWords("One two.", 5)).toEqual({ text: "One two.", shortened: false });
  });

  it.each([15, 30, 60] as const)("the %is template script fits its length", (seconds) => {
    const script = templateVideoScript(BUSINESS, VideoScriptRequest.parse({ seconds }));
    expect(scriptSeconds(script)).toBeLessThanOrEqual(Math.floor(seconds * 1.1));
  });

  it("a script past its length loses trailing scenes and says so", () => {
    const script = templateVideoScript(BUSINESS, VideoScriptRequest.parse({ seconds: 60 }));
    const fitted = fitScript({ ...script, seconds: 15 });
    expect(fitted.script.scenes.length).toBeLessThan(script.scenes.length);
    expect(scriptSeconds(fitted.script)).toBeLessThanOrEqual(16);
    expect(fitted.notes[0]).toMatch(/Shortened to fit 15 seconds/);
  });
});

describe("generator rules", () => {
  it("a GMB offer takes the form's title, code and dates and defaults the end to 14 days", () => {
    const req = GmbPostRequest.parse({ postType: "OFFER", title: "20% off gutter guards", couponCode: "WINTER20", startDate: "2026-12-01", ctaType: "BOOK", ctaUrl: "https://ridge.example/book" });
    const post = gmbRules.template(BUSINESS, req, NOW);
    expect(post.offer).toMatchObject({ title: "20% off gutter guards", couponCode: "WINTER20", startDate: "2026-12-01", endDate: "2026-12-15" });
    expect(post.callToAction).toEqual({ actionType: "BOOK", url: "https://ridge.example/book" });
    expect(gmbRules.result.safeParse(post).success).toBe(true);
  });

  it("a GMB summary past 1,500 characters is shortened with a note", () => {
    const req = GmbPostRequest.parse({});
    const post = gmbRules.template(BUSINESS, req, NOW);
    const { result, notes } = gmbRules.enforce({ ...post, summary: "A full sentence here. ".repeat(120) }, req);
    expect(result.summary.length).toBeLessThanOrEqual(1500);
    expect(notes).toEqual(["Shortened on a sentence boundary to fit Google's 1,500-character limit."]);
  });

  it("refuses a button without its link, and an end before the start", () => {
    expect(GmbPostRequest.safeParse({ ctaType: "BOOK" }).success).toBe(false);
    expect(GmbPostRequest.safeParse({ postType: "EVENT", startDate: "2026-12-10", endDate: "2026-12-01" }).success).toBe(false);
    expect(GmbPostRequest.safeParse({ ctaType: "LEARN_MORE", ctaUrl: "javascript:alert(1)" }).success).toBe(false);
  });

  it("social posts: an idea with 36 hashtags stays within each network's cap, from the template and from the AI (issue 26)", () => {
    const idea = `Spring gutter special ${Array.from({ length: 36 }, (_, i) => `#gutter${i}`).join(" ")}`;
    const req = SocialPostsRequest.parse({ idea, networks: [...NETWORKS] });
    const fromTemplate = socialPostsRules.enforce(socialPostsRules.template(BUSINESS, req, NOW), req).result;
    const answer = JSON.stringify({ posts: NETWORKS.map((network) => ({ network, content: idea, hashtags: ["#a", "#b", "#c", "#d", "#e", "#f", "#g", "#h"] })) });
    const parsed = socialPostsRules.fromAnswer(answer, BUSINESS, req, NOW);
    if (!parsed.ok) throw new Error(parsed.message);
    const fromAi = socialPostsRules.enforce(parsed.value, req).result;
    for (const result of [fromTemplate, fromAi]) {
      for (const post of result.posts) {
        expect(hashtagsIn(postText(post.content, post.hashtags)).length, post.network).toBeLessThanOrEqual(NETWORK_HASHTAG_LIMITS[post.network]);
      }
    }
  });

  it("social posts: in the product's network order, a network the model skipped gets the template's post", () => {
    const req = SocialPostsRequest.parse({ idea: "Gutter cleaning", networks: ["x", "linkedin"] });
    const parsed = socialPostsRules.fromAnswer(JSON.stringify({ posts: [{ network: "x", content: "Clean gutters now.", hashtags: ["#gutters"] }] }), BUSINESS, req, NOW);
    expect(parsed.ok && parsed.value.posts.map((p) => p.network)).toEqual(["linkedin", "x"]);
  });
});

describe("social plan", () => {
  it.each([
    [1, 5],
    [3, 13],
    [7, 31],
  ])("%i posts a week make %i posts in December 2026", (perWeek, count) => {
    expect(planSlots("2026-12", ["facebook"], perWeek)).toHaveLength(count);
  });

  it("takes the networks in turn and numbers the weeks from Monday", () => {
    const slots = planSlots("2026-12", ["facebook", "instagram"], 3);
    expect(slots.slice(0, 3).map((s) => [s.date, s.network])).toEqual([
      ["2026-12-02", "facebook"],
      ["2026-12-04", "instagram"],
      ["2026-12-07", "facebook"],
    ]);
    expect(weekOfMonth("2026-12-01")).toBe(1);
    expect(weekOfMonth("2026-12-07")).toBe(2);
  });

  it("moves a day and keeps the days in date order", () => {
    const plan = templatePlan(BUSINESS, SocialPlanRequest.parse({ month: "2026-12" }), NOW);
    const moved = moveDay(plan, plan.days[0]!.id, "2026-12-31");
    expect(moved.days.at(-1)!.id).toBe(plan.days[0]!.id);
    expect(moved.days.map((d) => d.date)).toEqual([...moved.days.map((d) => d.date)].sort());
  });

  it("CSV round trip: what is exported is imported back the same", () => {
    const plan = templatePlan(BUSINESS, SocialPlanRequest.parse({ month: "2026-12", networks: ["x", "google-business", "nextdoor"] }), NOW);
    plan.days[0]!.idea = '=SUM(A1) "quoted", with commas\nand a line break';
    const back = planFromCsv(planToCsv(plan));
    expect(back.errors).toEqual([]);
    expect(back.days.map(({ date, network, theme, idea }) => ({ date, network, theme, idea }))).toEqual(plan.days.map(({ date, network, theme, idea }) => ({ date, network, theme, idea })));
  });

  it("CSV import keeps valid rows and reports each bad one by row number", () => {
    const csv = ["date,network,idea", "2026-12-01,Facebook,Winter roof check", "2026-13-01,Facebook,Bad month", "2026-12-03,MySpace,Old network", "2026-12-04,X,", "2026-12-05,twitter,Short tip"].join("\n");
    const out = planFromCsv(csv);
    expect(out.days.map((d) => [d.date, d.network])).toEqual([
      ["2026-12-01", "facebook"],
      ["2026-12-05", "x"],
    ]);
    expect(out.errors).toEqual([
      { row: 3, message: '"2026-13-01" is not a date like 2026-12-01' },
      { row: 4, message: 'Unknown network "MySpace" (use Facebook, Instagram, LinkedIn, X, Google Business, Nextdoor)' },
      { row: 5, message: "The idea is empty" },
    ]);
  });

  it("ICS: one all-day event per post, escaped, folded at 75 octets, read back the same", () => {
    const plan = templatePlan(BUSINESS, SocialPlanRequest.parse({ month: "2026-12" }), NOW);
    plan.days[0]!.idea = "Commas, semicolons; and a \\ backslash — plus a long tail ".repeat(3).trim();
    const ics = planToIcs(plan, { planId: "plan-1", name: "December", stamp: "2026-12-05T10:00:00.000Z" });
    const lines = ics.split("\r\n");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
    const unfolded = ics.replace(/\r\n /g, "");
    const events = unfolded.split("BEGIN:VEVENT").slice(1);
    expect(events).toHaveLength(plan.days.length);
    const read = (event: string, name: string) => /^([A-Z;=]+):(.*)$/m.exec(event.split("\r\n").find((l) => l.startsWith(name))!)![2]!;
    const unescape = (v: string) => v.replace(/\\n/g, "\n").replace(/\\([,;\\])/g, "$1");
    expect(read(events[0]!, "DTSTART")).toBe(plan.days[0]!.date.replace(/-/g, ""));
    expect(unescape(read(events[0]!, "DESCRIPTION"))).toBe(`Theme: ${plan.days[0]!.theme}\n\n${plan.days[0]!.idea}`);
    expect(read(events[0]!, "UID")).toBe(`plan-1-${plan.days[0]!.id}@porchlight`);
    expect(read(events[0]!, "DTSTAMP")).toBe("20261205T100000Z");
  });

  it("opens a Google Business day in the GMB generator and the others in the social post generator", () => {
    expect(generatorLink({ network: "google-business", idea: "Snow & ice" })).toBe("/tools/gmb-post-generator?topic=Snow%20%26%20ice");
    expect(generatorLink({ network: "x", idea: "Tip" })).toBe("/tools/social-post-generator?idea=Tip&network=x");
  });
});
