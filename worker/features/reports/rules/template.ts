// Locally built report content (the fallback when the AI call fails): same prospect, same content.
import type { ReportFindings } from "./findings";
import type { Category } from "../../../domain/categories";
import {
  type BlogStructure,
  type FacebookPost,
  type GmbArticle,
  type NormalizedReportContent,
  type ReportProspect,
  businessName,
  normalizeReportContent,
  prospectCategory,
} from "./content";
import { deriveTrade } from "../../prospects/rules/prospect";

type TradeGuide = {
  /** The service as it reads in a sentence: "roofing", "heating and cooling". */
  service: string;
  /** Problems homeowners notice: "leaks, missing shingles and storm damage". */
  problems: string;
  /** A recurring job worth booking: "a roof inspection every spring and after major storms". */
  upkeep: string;
  /** The big decision customers weigh: "whether to repair or replace a roof". */
  decision: string;
};

const TRADE_GUIDES: Record<Category, TradeGuide> = {
  Roofing: {
    service: "roofing",
    problems: "leaks, missing shingles and storm damage",
    upkeep: "a roof inspection every spring and after major storms",
    decision: "whether to repair or replace an aging roof",
  },
  Remodeling: {
    service: "remodeling",
    problems: "outdated layouts, worn finishes and rooms that no longer fit your family",
    upkeep: "a planning consultation before you commit to a budget",
    decision: "which rooms give the best return on a remodel",
  },
  Plumbing: {
    service: "plumbing",
    problems: "slow drains, running toilets, low water pressure and hidden leaks",
    upkeep: "a yearly plumbing check and water heater flush",
    decision: "whether to repair or replace a failing water heater",
  },
  "Electrical Services": {
    service: "electrical work",
    problems: "flickering lights, tripping breakers and warm outlets",
    upkeep: "an electrical safety inspection",
    decision: "when an older panel needs an upgrade",
  },
  HVAC: {
    service: "heating and cooling",
    problems: "uneven temperatures, rising energy bills and strange noises from the system",
    upkeep: "a tune-up before each heating and cooling season",
    decision: "whether to repair an old system or install a new one",
  },
  "Landscaping & Lawn Care": {
    service: "landscaping and lawn care",
    problems: "patchy grass, poor drainage and overgrown beds",
    upkeep: "seasonal lawn care and cleanups",
    decision: "which landscape upgrades add the most curb appeal",
  },
  "Pest Control": {
    service: "pest control",
    problems: "droppings, chewed wires, mud tubes and insects indoors",
    upkeep: "a quarterly pest prevention treatment",
    decision: "whether a one-time treatment or ongoing protection fits your home",
  },
  "Cleaning Services": {
    service: "cleaning",
    problems: "built-up grime, dust and allergens",
    upkeep: "a regular cleaning schedule",
    decision: "whether a deep clean or recurring service suits your household",
  },
  Painting: {
    service: "painting",
    problems: "peeling paint, fading color and exposed wood",
    upkeep: "a paint condition check every few years",
    decision: "when to repaint and which finish lasts longest",
  },
  Flooring: {
    service: "flooring",
    problems: "scratches, warped boards, loose tiles and worn carpet",
    upkeep: "a floor care routine suited to your material",
    decision: "which flooring material fits your rooms and budget",
  },
  "Handyman Services": {
    service: "handyman",
    problems: "a growing list of small repairs that never get done",
    upkeep: "a seasonal home maintenance visit",
    decision: "which repairs to tackle first",
  },
  "Window & Door Services": {
    service: "window and door",
    problems: "drafts, foggy glass, sticking frames and rising energy bills",
    upkeep: "a yearly check of seals and weatherstripping",
    decision: "whether to repair or replace windows and doors",
  },
  "Siding & Gutter Services": {
    service: "siding and gutter",
    problems: "overflowing gutters, cracked siding and water stains",
    upkeep: "a gutter cleaning each spring and fall",
    decision: "whether damaged siding needs a repair or a full replacement",
  },
  "Deck & Patio Construction": {
    service: "deck and patio",
    problems: "loose boards, rot, cracked pavers and wobbly railings",
    upkeep: "a yearly deck inspection and sealing",
    decision: "which materials suit your outdoor space and climate",
  },
  "Pool Services": {
    service: "pool service",
    problems: "cloudy water, algae and pumps that run poorly",
    upkeep: "weekly pool maintenance and a seasonal equipment check",
    decision: "whether to repair or upgrade pool equipment",
  },
  "Home Security & Automation": {
    service: "home security and automation",
    problems: "blind spots around the property and devices that do not work together",
    upkeep: "a yearly system test and update",
    decision: "which cameras, locks and sensors your home really needs",
  },
  "Appliance Repair": {
    service: "appliance repair",
    problems: "leaks, odd noises and appliances that stop heating or cooling",
    upkeep: "simple appliance maintenance like cleaning coils and filters",
    decision: "whether to repair or replace a broken appliance",
  },
  "General Contracting": {
    service: "general contracting",
    problems: "projects that need several trades and a clear schedule",
    upkeep: "a walkthrough to plan your next project",
    decision: "how to plan the budget and timeline of a home project",
  },
  "Home Inspections": {
    service: "home inspection",
    problems: "hidden defects in roofing, wiring, plumbing and foundations",
    upkeep: "an inspection before buying or selling",
    decision: "which inspection findings need attention first",
  },
  "Interior Design": {
    service: "interior design",
    problems: "rooms that feel cramped, dark or mismatched",
    upkeep: "a design consultation before you buy furniture",
    decision: "how to balance style, comfort and budget",
  },
  Other: {
    service: "home service",
    problems: "small issues that turn into costly repairs",
    upkeep: "regular professional maintenance",
    decision: "when to call a professional",
  },
};

const SMALL_WORDS = new Set(["a", "an", "and", "in", "of", "for", "near", "or", "the", "to"]);

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** Why the new meta tags are better than the site's current ones (or that there were none). */
function metaFindings(f: ReportFindings | null): string[] {
  if (!f) return [];
  if (f.noWebsite) return ["Written for the website the business does not have yet: without one, searchers find only competitors"];
  const out: string[] = [];
  if (f.currentTitle !== null) out.push(`Replaces the current title "${f.currentTitle}" (${[...f.currentTitle].length} characters)`);
  if (f.currentDescription !== null) out.push(`Replaces the current description (${[...f.currentDescription].length} characters) with one that asks for the call`);
  else if (f.siteUrl) out.push("Gives the page the meta description it does not have");
  return out;
}

function adFindings(f: ReportFindings | null, business: string): string[] {
  if (!f || f.competitors.length === 0) return [];
  const top = f.competitors[0]!;
  return [`Answers the map pack's leaders (${f.competitors.map((c) => c.name).join(", ")}): ${business} is the local choice${top.rating != null ? ` against ${top.name}'s ${top.rating.toFixed(1)} stars` : ""}`];
}

/** The first gap a Google Business Profile post can help with replaces the last generic idea. */
function gapArticles(f: ReportFindings | null, articles: GmbArticle[], ctx: { business: string; city: string; keyword: string }): GmbArticle[] {
  const gap = f?.gaps.find((g) => ["review_count", "rating", "competitor_reviews", "competitor_rating", "map_pack_position", "gbp_hours", "gbp_categories", "website_present"].includes(g.id));
  if (!gap) return articles;
  const idea: Record<string, GmbArticle> = {
    review_count: { title: `Thank You, ${ctx.city}: Tell Us How We Did`, subtitle: "A post asking your customers for a Google review.", targetKeywords: [ctx.keyword, `${ctx.business} reviews`, `trusted ${ctx.keyword}`] },
    rating: { title: `Our Promise to Every ${ctx.city} Customer`, subtitle: `How ${ctx.business} makes things right, and invites feedback.`, targetKeywords: [ctx.keyword, `${ctx.business} reviews`, `${ctx.keyword} guarantee`] },
    competitor_reviews: { title: `What ${ctx.city} Neighbors Say About ${ctx.business}`, subtitle: "Real customer stories, and a link to leave your own review.", targetKeywords: [ctx.keyword, `${ctx.business} reviews`, `best ${ctx.keyword}`] },
    competitor_rating: { title: `Why ${ctx.city} Rates ${ctx.business}`, subtitle: "Customer stories and our satisfaction promise.", targetKeywords: [ctx.keyword, `${ctx.business} reviews`, `top rated ${ctx.keyword}`] },
    map_pack_position: { title: `${ctx.business}: Serving ${ctx.city} This Week`, subtitle: `A weekly update post that keeps the profile active for "${ctx.keyword}".`, targetKeywords: [ctx.keyword, `${ctx.keyword} near me`, `${ctx.city.toLowerCase()} ${ctx.keyword}`] },
    gbp_hours: { title: `Our Hours and How to Reach Us`, subtitle: `When ${ctx.business} is open, and how to book after hours.`, targetKeywords: [ctx.keyword, `${ctx.keyword} open now`, `emergency ${ctx.keyword}`] },
    gbp_categories: { title: `All the Services ${ctx.business} Offers`, subtitle: "Every service, so Google shows the profile for each of them.", targetKeywords: [ctx.keyword, `${ctx.keyword} services`, `${ctx.keyword} near me`] },
    website_present: { title: `Book ${ctx.business} Right from Google`, subtitle: "Call or message from the profile while our website is on its way.", targetKeywords: [ctx.keyword, `${ctx.keyword} near me`, `call ${ctx.keyword}`] },
  };
  return [...articles.slice(0, 2), idea[gap.id]!];
}

function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word, index) =>
      index > 0 && SMALL_WORDS.has(word.toLowerCase()) ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1),
    )
    .join(" ");
}

/** Shortens text at a word boundary so it stays under `limit` characters. */
function fitUnder(text: string, limit: number): string {
  if (text.length < limit) return text;
  const cut = text.slice(0, limit - 1);
  const lastSpace = cut.lastIndexOf(" ");
  const shortened = lastSpace > 0 ? cut.slice(0, lastSpace) : cut;
  return shortened.replace(/[\s|,;:\-–]+$/, "");
}

/** Joins whole sentences while they fit under `limit`; cuts the first one only if it alone is too long. */
function fitSentencesUnder(sentences: readonly string[], limit: number): string {
  let text = "";
  for (const sentence of sentences) {
    const next = text === "" ? sentence : `${text} ${sentence}`;
    if (next.length >= limit) break;
    text = next;
  }
  return text !== "" ? text : fitUnder(sentences[0] ?? "", limit);
}

/** The service as it reads in a sentence; for Other, the trade from the keyword or description. */
function serviceFor(category: Category, keyword: string, description: string): string {
  if (category !== "Other") return TRADE_GUIDES[category].service;
  const fromKeyword = keyword.includes(" in ") ? keyword.split(" in ")[0]!.trim() : "";
  const fromDescription = deriveTrade(description);
  const candidate = fromKeyword || (fromDescription !== "business" ? fromDescription : "");
  // A long phrase reads badly inside every heading; the generic wording is better there.
  return candidate !== "" && candidate.length <= 30 ? candidate : TRADE_GUIDES.Other.service;
}

function domainFor(name: string, fallback: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  const base = slug !== "" ? slug : fallback.toLowerCase().replace(/[^a-z0-9]/g, "") || "localbusiness";
  return `www.${base}.com`;
}

/** Locally built report content, used when the AI call fails. Same prospect, same content. */
/** Template content; with the audit's findings (issue 18) the meta tags, ad and post ideas build on what was seen. */
export function templateReportContent(p: ReportProspect, findings: ReportFindings | null = null): NormalizedReportContent {
  const business = businessName(p);
  const category = prospectCategory(p);
  const guide = TRADE_GUIDES[category];
  const area = p.area.trim() || "your area";
  const city = (p.area.split(",")[0] ?? "").trim() || "your area";
  const cityLower = city.toLowerCase();
  const keyword = p.keyword.trim() || `${deriveTrade(p.description)} in ${cityLower}`;
  const service = serviceFor(category, keyword, p.description);
  const Service = titleCase(service);
  const realSite = findings?.siteUrl && !findings.noWebsite ? findings.siteUrl : null;
  const domain = realSite ? hostOf(realSite) ?? domainFor(business, keyword) : domainFor(business, keyword);
  const siteUrl = realSite ?? `https://${domain}`;

  const withBusiness = `${titleCase(keyword)} | ${business}`;
  const metaTitle = fitUnder(withBusiness.length < 60 ? withBusiness : titleCase(keyword), 60);
  const metaDescription = fitSentencesUnder(
    [
      `${business} offers trusted ${service} in ${area}.`,
      `Get help with ${guide.problems}.`,
      "Call today to schedule service.",
    ],
    160,
  );

  const gmbArticles: GmbArticle[] = [
    {
      title: `${Service} in ${city}: What Homeowners Should Know`,
      subtitle: `How ${business} helps ${city} homeowners deal with ${guide.problems}.`,
      targetKeywords: [keyword, `${service} ${cityLower}`, `${service} near me`],
    },
    {
      title: `Warning Signs Your Home Needs ${Service} Help`,
      subtitle: `Spot ${guide.problems} early and avoid a bigger bill later.`,
      targetKeywords: [`${service} repair ${cityLower}`, `signs you need ${service}`, `emergency ${service} ${cityLower}`],
    },
    {
      title: `Why ${city} Homeowners Choose ${business}`,
      subtitle: `Local experience, clear estimates and work done right the first time.`,
      targetKeywords: [`best ${service} ${cityLower}`, `${service} company ${cityLower}`, `local ${service} experts`],
    },
  ];

  const blogStructures: BlogStructure[] = [
    {
      title: `The Complete Guide to ${Service} in ${city}`,
      sections: [
        `When ${city} homes need ${service}`,
        `Common problems: ${guide.problems}`,
        `How to choose a reliable local ${service} professional`,
        `What to expect when you work with ${business}`,
        `Frequently asked questions from ${city} homeowners`,
      ],
      targetKeywords: [keyword, `${service} ${cityLower}`, `${service} services`, `${service} cost ${cityLower}`, `${service} near me`],
    },
    {
      title: `${Service} Costs in ${city}: What Affects the Price`,
      sections: [
        `What drives the cost of ${service}`,
        `Making the call: ${guide.decision}`,
        `How to get an accurate written estimate`,
        `Ways to save without cutting corners`,
        `Warranties and guarantees to ask about`,
      ],
      targetKeywords: [`${service} cost ${cityLower}`, keyword, `${service} estimate`, `affordable ${service}`, `${service} prices`],
    },
    {
      title: `A Year-Round ${Service} Checklist for ${city} Homes`,
      sections: [
        `Why regular maintenance pays off`,
        `Spring and summer checks`,
        `Fall and winter preparation`,
        `Simple tasks you can do yourself`,
        `Scheduling professional maintenance with ${business}`,
      ],
      targetKeywords: [`${service} maintenance ${cityLower}`, keyword, `${service} checklist`, `home maintenance ${cityLower}`, `${service} tips`],
    },
  ];

  const facebookPosts: FacebookPost[] = [
    {
      title: `Spot These ${Service} Problems Early`,
      content:
        `Dealing with ${guide.problems}? Small problems rarely fix themselves and usually cost more the longer they wait.\n\n` +
        `Our team at ${business} helps homeowners across ${area} find the cause and fix it properly. Send us a message to book a visit.`,
    },
    {
      title: `A Maintenance Tip from ${business}`,
      content:
        `The easiest repair is the one you never need. We recommend ${guide.upkeep}.\n\n` +
        `It takes little time, catches issues early and keeps your home running smoothly. Reach out to get it on the calendar.`,
    },
    {
      title: `${Service} Questions We Hear in ${city}`,
      content:
        `One of the most common questions we get is ${guide.decision}.\n\n` +
        `The honest answer depends on age, condition and budget. ${business} will walk you through the options and give you a clear written estimate so you can decide with confidence.`,
    },
  ];

  return normalizeReportContent(
    {
      metaSEO: {
        title: metaTitle,
        description: metaDescription,
        url: siteUrl,
        improvements: [
          ...metaFindings(findings),
          `Leads with the target keyword "${keyword}" so searchers see an exact match`,
          `Names the service area (${area}) to stand out in local results`,
          "Keeps the title under 60 characters and the description under 160 so neither is cut off",
          "Ends with a clear call to action that invites the click",
        ],
      },
      perfectAd: {
        title: fitUnder(`${Service} in ${city} | ${business}`, 90),
        description: fitSentencesUnder(
          [
            `Trusted ${service} for ${area} homeowners.`,
            "Local team, clear estimates and prompt scheduling.",
            `Call ${business} today.`,
          ],
          160,
        ),
        displayUrl: domain,
        targetUrl: siteUrl,
        improvements: [
          ...adFindings(findings, business),
          `Matches the search "${keyword}" in the headline`,
          `Mentions ${city} to signal a nearby provider`,
          "Highlights trust and clear pricing, the top concerns of homeowners",
          "Closes with a direct call to action",
        ],
      },
      gmbArticles: gapArticles(findings, gmbArticles, { business, city, keyword }),
      blogStructures,
      facebookPosts,
      seoPotential: { score: findings?.overall != null ? Math.max(1, findings.overall) : 85 },
    },
    p,
  );
}

