// The audit's checks (issue 18) as pure functions over what each step saw: the page's facts (filled by the
// HTMLRewriter step), the Google listing, page speed, rank and competitors. Missing data is `unknown`, never `fail`.
import type { PageFacts, PageSpeedInput } from "../../../platform/providers/rules/website";
import { compareAddresses, compareNames, comparePhones, formatPhone, normalizePhone, phonesInText } from "../../../domain/nap";

export type Verdict = "pass" | "warn" | "fail" | "unknown";

export type SectionId =
  | "business_details"
  | "google_business_profile"
  | "reputation"
  | "website_performance"
  | "on_page_seo"
  | "local_rank"
  | "competitors";

export type CheckId =
  | "website_present"
  | "name_matches"
  | "address_matches"
  | "phone_matches"
  | "phone_on_page"
  | "phone_clickable"
  | "local_business_schema"
  | "title"
  | "meta_description"
  | "h1"
  | "canonical"
  | "viewport"
  | "lang"
  | "noindex"
  | "open_graph"
  | "analytics"
  | "https"
  | "http_redirect"
  | "performance_score"
  | "lcp"
  | "inp"
  | "cls"
  | "gbp_found"
  | "gbp_categories"
  | "gbp_hours"
  | "gbp_website"
  | "rating"
  | "review_count"
  | "competitor_rating"
  | "competitor_reviews"
  | "map_pack_position"
  | "organic_position";

export type Check = { id: CheckId; section: SectionId; verdict: Verdict; evidence: string; reason?: string };

export type { PageFacts, PageSpeedInput };

/** The website step's outcome: the page was read, the business has no website, or the fetch failed (with why). */
export type PageInput =
  | { status: "fetched"; facts: PageFacts }
  | { status: "no_website" }
  | { status: "failed"; reason: string };

export type Listing = {
  name: string;
  address?: string | null;
  phone?: string | null;
  website?: string | null;
  categories?: string[] | null;
  /** True when the listing has opening hours, false when it has none, null when the provider did not say. */
  hoursSet?: boolean | null;
  rating?: number | null;
  reviewCount?: number | null;
};

export type ListingInput =
  | { status: "found"; listing: Listing }
  | { status: "not_found"; candidates: number }
  | { status: "failed"; reason: string };

export type RankInput =
  | {
      status: "ok";
      keyword: string;
      area: string;
      /** 1-based position in the map results, null when not among them. */
      mapPosition: number | null;
      mapResultsChecked: number;
      /** 1-based position in the organic results, null when not among them. */
      organicPosition: number | null;
      organicResultsChecked: number;
    }
  | { status: "failed"; reason: string };

/** `phone` (kept since issue 27) lets the Citation Tracker look the competitor up on the directories. */
export type Competitor = { name: string; rating: number | null; reviewCount: number | null; phone?: string | null };

export type CompetitorsInput = { status: "ok"; competitors: readonly Competitor[] } | { status: "failed"; reason: string };

export const LIMITS = {
  titleMin: 30,
  titleMax: 60,
  descriptionMin: 70,
  descriptionMax: 160,
  // Core Web Vitals: "good" up to the first figure, "poor" beyond the second (web.dev).
  lcpGoodMs: 2500,
  lcpPoorMs: 4000,
  inpGoodMs: 200,
  inpPoorMs: 500,
  clsGood: 0.1,
  clsPoor: 0.25,
  // Lighthouse's own colour bands.
  performanceGood: 90,
  performancePoor: 50,
  ratingGood: 4.5,
  ratingPoor: 4.0,
  reviewsGood: 25,
  reviewsPoor: 10,
  mapPack: 3,
  organicFirstPage: 10,
} as const;

function check(id: CheckId, section: SectionId, verdict: Verdict, evidence: string, reason?: string): Check {
  return reason === undefined ? { id, section, verdict, evidence } : { id, section, verdict, evidence, reason };
}

function unknown(id: CheckId, section: SectionId, reason: string): Check {
  return check(id, section, "unknown", `We could not check this: ${reason}.`, reason);
}

const PAGE_CHECKS: ReadonlyArray<[CheckId, SectionId]> = [
  ["phone_on_page", "business_details"],
  ["phone_clickable", "business_details"],
  ["local_business_schema", "business_details"],
  ["title", "on_page_seo"],
  ["meta_description", "on_page_seo"],
  ["h1", "on_page_seo"],
  ["canonical", "on_page_seo"],
  ["viewport", "on_page_seo"],
  ["lang", "on_page_seo"],
  ["noindex", "on_page_seo"],
  ["open_graph", "on_page_seo"],
  ["analytics", "on_page_seo"],
  ["https", "website_performance"],
  ["http_redirect", "website_performance"],
];

const chars = (n: number) => `${n} character${n === 1 ? "" : "s"}`;

export function checkTitle(title: string | null): Check {
  const text = title?.trim() ?? "";
  if (!text) return check("title", "on_page_seo", "fail", "Your page has no title; Google shows the title as the headline of your result.");
  const n = [...text].length;
  if (n < LIMITS.titleMin) return check("title", "on_page_seo", "warn", `Your page title is ${chars(n)} ("${text}"); a title of 30–60 characters says more in Google's results.`);
  if (n > LIMITS.titleMax) return check("title", "on_page_seo", "warn", `Your page title is ${chars(n)}; Google shows about 60.`);
  return check("title", "on_page_seo", "pass", `Your page title is ${chars(n)} ("${text}"), within the 30–60 Google shows.`);
}

export function checkMetaDescription(description: string | null): Check {
  const text = description?.trim() ?? "";
  if (!text) return check("meta_description", "on_page_seo", "fail", "Your page has no meta description, so Google picks a snippet of the page for you.");
  const n = [...text].length;
  if (n < LIMITS.descriptionMin) return check("meta_description", "on_page_seo", "warn", `Your meta description is ${chars(n)}; 70–160 characters fill the snippet Google shows.`);
  if (n > LIMITS.descriptionMax) return check("meta_description", "on_page_seo", "warn", `Your meta description is ${chars(n)}; Google cuts it off at about 160.`);
  return check("meta_description", "on_page_seo", "pass", `Your meta description is ${chars(n)}, within the 70–160 Google shows.`);
}

export function checkH1(count: number): Check {
  if (count === 1) return check("h1", "on_page_seo", "pass", "Your page has exactly one main heading (H1).");
  if (count === 0) return check("h1", "on_page_seo", "fail", "Your page has no main heading (H1) telling Google what it is about.");
  return check("h1", "on_page_seo", "warn", `Your page has ${count} main headings (H1); one says more clearly what the page is about.`);
}

function checkCanonical(canonical: string | null): Check {
  return canonical?.trim()
    ? check("canonical", "on_page_seo", "pass", `Your page names its canonical address: ${canonical.trim()}.`)
    : check("canonical", "on_page_seo", "warn", "Your page does not name a canonical address, so Google may split its ranking between copies of it.");
}

function checkViewport(viewport: string | null): Check {
  return viewport?.trim()
    ? check("viewport", "on_page_seo", "pass", "Your page is set up for phones (it has a viewport tag).")
    : check("viewport", "on_page_seo", "fail", "Your page has no viewport tag, so phones show it shrunk to fit; Google ranks on the phone version.");
}

function checkLang(lang: string | null): Check {
  return lang?.trim()
    ? check("lang", "on_page_seo", "pass", `Your page declares its language ("${lang.trim()}").`)
    : check("lang", "on_page_seo", "warn", "Your page does not declare its language.");
}

function checkNoindex(noindex: boolean): Check {
  return noindex
    ? check("noindex", "on_page_seo", "fail", "Your page tells Google not to list it (robots noindex), so it cannot appear in search results.")
    : check("noindex", "on_page_seo", "pass", "Your page lets Google list it (no noindex).");
}

function checkOpenGraph(og: Record<string, string>): Check {
  const wanted = ["og:title", "og:description", "og:image"];
  const present = wanted.filter((key) => og[key]?.trim());
  if (present.length === wanted.length) return check("open_graph", "on_page_seo", "pass", "Your page has Open Graph tags (title, description, image) for shared links.");
  const missing = wanted.filter((key) => !present.includes(key));
  return check("open_graph", "on_page_seo", "warn", `Your page is missing the Open Graph tags ${missing.join(", ")}, so links to it shared on social media look bare.`);
}

function checkAnalytics(analytics: string[]): Check {
  return analytics.length > 0
    ? check("analytics", "on_page_seo", "pass", `Your page measures its visitors (${analytics.join(", ")}).`)
    : check("analytics", "on_page_seo", "warn", "We saw no analytics on your page, so you cannot tell how many visitors it brings.");
}

function protocolOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

export function checkHttps(facts: Pick<PageFacts, "finalUrl">): Check {
  const protocol = protocolOf(facts.finalUrl);
  if (protocol === null) return unknown("https", "website_performance", "the final address could not be read");
  return protocol === "https:"
    ? check("https", "website_performance", "pass", `Your site is served securely (${facts.finalUrl}).`)
    : check("https", "website_performance", "fail", `Your site is not served over HTTPS (${facts.finalUrl}); browsers mark it "Not secure".`);
}

/** http→https: known only when the chain started at an http address; a www↔non-www hop is neither good nor bad. */
export function checkHttpRedirect(facts: Pick<PageFacts, "redirectChain" | "finalUrl">): Check {
  const first = facts.redirectChain[0] ?? facts.finalUrl;
  if (protocolOf(first) !== "http:") return unknown("http_redirect", "website_performance", "the site was only fetched over https");
  return protocolOf(facts.finalUrl) === "https:"
    ? check("http_redirect", "website_performance", "pass", `${first} redirects to the secure ${facts.finalUrl}.`)
    : check("http_redirect", "website_performance", "fail", `${first} does not redirect to HTTPS.`);
}

/** `parts` and `url` are kept for the Citation Tracker (a listing's street, city and ZIP compared one by one). */
type JsonLdBusiness = { type: string; name: string | null; address: string | null; phone: string | null; url: string | null; parts: AddressParts | null };

export type AddressParts = { street: string | null; city: string | null; region: string | null; zip: string | null };

function addressParts(address: unknown): AddressParts | null {
  if (Array.isArray(address)) return addressParts(address[0]);
  if (!address || typeof address !== "object") return null;
  const a = address as Record<string, unknown>;
  const text = (key: string) => (typeof a[key] === "string" && (a[key] as string).trim() ? (a[key] as string).trim() : typeof a[key] === "number" ? String(a[key]) : null);
  return { street: text("streetAddress"), city: text("addressLocality"), region: text("addressRegion"), zip: text("postalCode") };
}

/** The schema.org LocalBusiness types a local home-service (or any local) business uses. */
const LOCAL_BUSINESS_TYPES = new Set([
  "LocalBusiness", "HomeAndConstructionBusiness", "Electrician", "GeneralContractor", "HVACBusiness", "HousePainter",
  "Locksmith", "MovingCompany", "Plumber", "RoofingContractor", "ProfessionalService", "AutomotiveBusiness",
  "AutoRepair", "AutoBodyShop", "AutoDealer", "AutoWash", "ChildCare", "DryCleaningOrLaundry", "EmergencyService",
  "EmploymentAgency", "EntertainmentBusiness", "FinancialService", "FoodEstablishment", "Restaurant",
  "GovernmentOffice", "HealthAndBeautyBusiness", "HairSalon", "DaySpa", "LegalService", "Attorney", "Notary",
  "LodgingBusiness", "MedicalBusiness", "Dentist", "Physician", "RealEstateAgent", "RecyclingCenter",
  "SelfStorage", "ShoppingCenter", "SportsActivityLocation", "Store", "HardwareStore", "HomeGoodsStore",
  "TravelAgency", "AnimalShelter", "ArchiveOrganization", "InternetCafe", "Library", "RadioStation",
  "TelevisionStation", "TouristInformationCenter", "PestControl", "CleaningService", "LandscapingBusiness",
]);

function typesOf(node: Record<string, unknown>): string[] {
  const raw = node["@type"];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((t): t is string => typeof t === "string").map((t) => t.replace(/^https?:\/\/schema\.org\//, ""));
}

function addressText(address: unknown): string | null {
  if (typeof address === "string") return address.trim() || null;
  if (Array.isArray(address)) return addressText(address[0]);
  if (address && typeof address === "object") {
    const a = address as Record<string, unknown>;
    const parts = ["streetAddress", "addressLocality", "addressRegion", "postalCode"]
      .map((key) => a[key])
      .filter((v): v is string | number => (typeof v === "string" && v.trim() !== "") || typeof v === "number")
      .map(String);
    return parts.length > 0 ? parts.join(", ") : null;
  }
  return null;
}

function nodesOf(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(nodesOf);
  if (value && typeof value === "object") {
    const node = value as Record<string, unknown>;
    return [node, ...(node["@graph"] ? nodesOf(node["@graph"]) : [])];
  }
  return [];
}

export type JsonLdReading = { businesses: JsonLdBusiness[]; errors: string[] };

/** Parses each JSON-LD block and keeps the LocalBusiness (or subtype) nodes; a block that is not JSON is reported, not thrown. */
export function readJsonLd(blocks: readonly string[]): JsonLdReading {
  const businesses: JsonLdBusiness[] = [];
  const errors: string[] = [];
  blocks.forEach((block, index) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(block);
    } catch (error) {
      errors.push(`block ${index + 1} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    for (const node of nodesOf(parsed)) {
      const type = typesOf(node).find((t) => LOCAL_BUSINESS_TYPES.has(t));
      if (!type) continue;
      const name = typeof node.name === "string" && node.name.trim() ? node.name.trim() : null;
      const phone = typeof node.telephone === "string" && node.telephone.trim() ? node.telephone.trim() : null;
      const url = typeof node.url === "string" && node.url.trim() ? node.url.trim() : null;
      businesses.push({ type, name, address: addressText(node.address), phone, url, parts: addressParts(node.address) });
    }
  });
  return { businesses, errors };
}

export function checkLocalBusinessSchema(blocks: readonly string[]): Check {
  const section: SectionId = "business_details";
  const { businesses, errors } = readJsonLd(blocks);
  const complete = businesses.find((b) => b.name && b.address && b.phone);
  if (complete) {
    return check("local_business_schema", section, "pass", `Your page describes the business to Google as a ${complete.type} with its name, address and phone.`);
  }
  if (businesses.length > 0) {
    const b = businesses[0]!;
    const missing = [!b.name && "name", !b.address && "address", !b.phone && "phone"].filter(Boolean).join(", ");
    return check("local_business_schema", section, "warn", `Your page's ${b.type} structured data is missing its ${missing}.`);
  }
  if (errors.length > 0) {
    return check("local_business_schema", section, "warn", `Your page's structured data could not be read: ${errors.join("; ")}.`, errors.join("; "));
  }
  return check("local_business_schema", section, "warn", "Your page has no LocalBusiness structured data telling Google your name, address and phone.");
}

/** Every phone the page shows: tel: links, numbers in its text and in its structured data. */
export function sitePhones(facts: Pick<PageFacts, "telLinks" | "text" | "jsonLd">): string[] {
  const found = new Set<string>();
  for (const link of facts.telLinks) {
    const digits = normalizePhone(link);
    if (digits) found.add(digits);
  }
  for (const digits of phonesInText(facts.text)) found.add(digits);
  for (const b of readJsonLd(facts.jsonLd).businesses) {
    const digits = b.phone ? normalizePhone(b.phone) : null;
    if (digits) found.add(digits);
  }
  return [...found];
}

function checkPhoneOnPage(facts: PageFacts): Check {
  const phones = sitePhones(facts);
  return phones.length > 0
    ? check("phone_on_page", "business_details", "pass", `Your page shows the phone number ${phones.map(formatPhone).join(", ")}.`)
    : check("phone_on_page", "business_details", "fail", "We found no phone number on your page, so a visitor cannot call you from it.");
}

function checkPhoneClickable(facts: PageFacts): Check {
  const links = facts.telLinks.map(normalizePhone).filter((p): p is string => p !== null);
  if (links.length > 0) return check("phone_clickable", "business_details", "pass", `Your phone number is a tap-to-call link (${formatPhone(links[0]!)}).`);
  if (phonesInText(facts.text).length > 0) {
    return check("phone_clickable", "business_details", "warn", "Your phone number is on the page but not a tap-to-call link, so phone visitors must copy it.");
  }
  return check("phone_clickable", "business_details", "fail", "Your page has no tap-to-call phone link.");
}

/** The checks over the fetched page; when the page could not be read, each says why instead of guessing. */
export function pageChecks(page: PageInput): Check[] {
  if (page.status === "no_website") {
    return [
      check("website_present", "business_details", "fail", "We found no website for this business: customers who search for it find only competitors' sites."),
      ...PAGE_CHECKS.map(([id, section]) => unknown(id, section, "the business has no website")),
    ];
  }
  if (page.status === "failed") {
    return [
      unknown("website_present", "business_details", `the website could not be fetched (${page.reason})`),
      ...PAGE_CHECKS.map(([id, section]) => unknown(id, section, `the website could not be fetched (${page.reason})`)),
    ];
  }
  const f = page.facts;
  return [
    check("website_present", "business_details", "pass", `The business has a website (${f.finalUrl}).`),
    checkPhoneOnPage(f),
    checkPhoneClickable(f),
    checkLocalBusinessSchema(f.jsonLd),
    checkTitle(f.title),
    checkMetaDescription(f.metaDescription),
    checkH1(f.h1Count),
    checkCanonical(f.canonical),
    checkViewport(f.viewport),
    checkLang(f.lang),
    checkNoindex(f.noindex),
    checkOpenGraph(f.openGraph),
    checkAnalytics(f.analytics),
    checkHttps(f),
    checkHttpRedirect(f),
  ];
}

/** Name, address and phone on the site against the Google listing (normalised; see nap.ts). */
export function napChecks(page: PageInput, listing: ListingInput): Check[] {
  const section: SectionId = "business_details";
  const ids: CheckId[] = ["name_matches", "address_matches", "phone_matches"];
  if (page.status !== "fetched") {
    const reason = page.status === "no_website" ? "the business has no website" : `the website could not be fetched (${page.reason})`;
    return ids.map((id) => unknown(id, section, reason));
  }
  if (listing.status !== "found") {
    const reason = listing.status === "failed" ? `the Google listing could not be looked up (${listing.reason})` : "no Google listing was matched";
    return ids.map((id) => unknown(id, section, reason));
  }
  const schema = readJsonLd(page.facts.jsonLd).businesses;
  const siteName = schema.find((b) => b.name)?.name ?? page.facts.openGraph["og:site_name"] ?? null;
  const siteAddress = schema.find((b) => b.address)?.address ?? null;
  const results = [
    compareNames(siteName, listing.listing.name),
    compareAddresses(siteAddress, listing.listing.address),
    comparePhones(sitePhones(page.facts), listing.listing.phone),
  ];
  return results.map((r, i) => check(ids[i]!, section, r.verdict, r.evidence, r.reason));
}

/** The Google Business Profile and reputation checks over the matched listing. */
export function listingChecks(input: ListingInput): Check[] {
  const gbp: SectionId = "google_business_profile";
  const rep: SectionId = "reputation";
  const rest: ReadonlyArray<[CheckId, SectionId]> = [
    ["gbp_categories", gbp],
    ["gbp_hours", gbp],
    ["gbp_website", gbp],
    ["rating", rep],
    ["review_count", rep],
  ];
  if (input.status === "failed") {
    const reason = `the Google listing could not be looked up (${input.reason})`;
    return [unknown("gbp_found", gbp, reason), ...rest.map(([id, s]) => unknown(id, s, reason))];
  }
  if (input.status === "not_found") {
    // Listings came back but none matched with confidence: the profile may exist, so we do not say it is missing.
    const found =
      input.candidates > 0
        ? check("gbp_found", gbp, "unknown", `Google Maps showed ${input.candidates} possible listing${input.candidates === 1 ? "" : "s"}, none clearly this business; pick the right one to complete the audit.`, "no confident match")
        : check("gbp_found", gbp, "fail", "We found no Google Business Profile for this business on Google Maps.");
    return [found, ...rest.map(([id, s]) => unknown(id, s, "the Google listing was not found"))];
  }
  const l = input.listing;
  const out: Check[] = [check("gbp_found", gbp, "pass", `Your Google Business Profile "${l.name}" was found on Google Maps.`)];
  if (l.categories == null) out.push(unknown("gbp_categories", gbp, "the listing's categories were not given"));
  else if (l.categories.length > 0) out.push(check("gbp_categories", gbp, "pass", `Your profile's categories: ${l.categories.join(", ")}.`));
  else out.push(check("gbp_categories", gbp, "fail", "Your profile has no category, so Google does not know which searches to show it for."));
  if (l.hoursSet == null) out.push(unknown("gbp_hours", gbp, "the listing's hours were not given"));
  else out.push(l.hoursSet ? check("gbp_hours", gbp, "pass", "Your profile shows your opening hours.") : check("gbp_hours", gbp, "fail", "Your profile shows no opening hours."));
  if (l.website === undefined) out.push(unknown("gbp_website", gbp, "the listing's website was not given"));
  else out.push(l.website ? check("gbp_website", gbp, "pass", `Your profile links to your website (${l.website}).`) : check("gbp_website", gbp, "fail", "Your profile does not link to a website."));
  out.push(ratingCheck(l.rating), reviewCountCheck(l.reviewCount));
  return out;
}

function ratingCheck(rating: number | null | undefined): Check {
  if (rating == null) return unknown("rating", "reputation", "the listing's rating was not given");
  const text = `Your Google rating is ${rating.toFixed(1)} stars`;
  if (rating >= LIMITS.ratingGood) return check("rating", "reputation", "pass", `${text}.`);
  if (rating >= LIMITS.ratingPoor) return check("rating", "reputation", "warn", `${text}; customers favour businesses rated ${LIMITS.ratingGood} or more.`);
  return check("rating", "reputation", "fail", `${text}, below 4; many customers skip businesses under 4 stars.`);
}

function reviewCountCheck(count: number | null | undefined): Check {
  if (count == null) return unknown("review_count", "reputation", "the listing's review count was not given");
  const text = `Your profile has ${count} review${count === 1 ? "" : "s"}`;
  if (count >= LIMITS.reviewsGood) return check("review_count", "reputation", "pass", `${text}.`);
  if (count >= LIMITS.reviewsPoor) return check("review_count", "reputation", "warn", `${text}; ${LIMITS.reviewsGood} or more builds trust.`);
  return check("review_count", "reputation", "fail", `${text}; fewer than ${LIMITS.reviewsPoor} gives customers little to go on.`);
}

/** Core Web Vitals and the performance score, by Google's thresholds. */
export function pageSpeedChecks(input: PageSpeedInput): Check[] {
  const s: SectionId = "website_performance";
  if (input.status === "failed") {
    const reason = `page speed could not be measured (${input.reason})`;
    return (["performance_score", "lcp", "inp", "cls"] as const).map((id) => unknown(id, s, reason));
  }
  const from = input.source === "field" ? "from real visitors' phones" : "measured in a lab test on a phone";
  const band = (value: number, good: number, poor: number): Verdict => (value <= good ? "pass" : value <= poor ? "warn" : "fail");
  const out: Check[] = [];
  if (input.performanceScore == null) out.push(unknown("performance_score", s, "no performance score was returned"));
  else {
    const score = Math.round(input.performanceScore);
    const verdict: Verdict = score >= LIMITS.performanceGood ? "pass" : score >= LIMITS.performancePoor ? "warn" : "fail";
    out.push(check("performance_score", s, verdict, `Your page's mobile performance score is ${score} out of 100.`));
  }
  if (input.lcpMs == null) out.push(unknown("lcp", s, "no Largest Contentful Paint figure was returned"));
  else out.push(check("lcp", s, band(input.lcpMs, LIMITS.lcpGoodMs, LIMITS.lcpPoorMs), `Your page's main content appears after ${(input.lcpMs / 1000).toFixed(1)} s (${from}); Google counts up to 2.5 s as good.`));
  if (input.inpMs == null) out.push(unknown("inp", s, "no Interaction to Next Paint figure was returned (it needs real visitors' data)"));
  else out.push(check("inp", s, band(input.inpMs, LIMITS.inpGoodMs, LIMITS.inpPoorMs), `Your page responds to a tap after ${Math.round(input.inpMs)} ms (${from}); Google counts up to 200 ms as good.`));
  if (input.cls == null) out.push(unknown("cls", s, "no Cumulative Layout Shift figure was returned"));
  else out.push(check("cls", s, band(input.cls, LIMITS.clsGood, LIMITS.clsPoor), `Your page's layout shifts by ${input.cls.toFixed(2)} while loading (${from}); Google counts up to 0.1 as good.`));
  return out;
}

/** Map-pack and organic positions for the report's keyword. */
export function rankChecks(input: RankInput): Check[] {
  const s: SectionId = "local_rank";
  if (input.status === "failed") {
    const reason = `the rankings could not be looked up (${input.reason})`;
    return [unknown("map_pack_position", s, reason), unknown("organic_position", s, reason)];
  }
  const q = `"${input.keyword}" in ${input.area}`;
  const map =
    input.mapPosition == null
      ? check("map_pack_position", s, "fail", `You are not among the top ${input.mapResultsChecked} Google Maps results for ${q}.`)
      : input.mapPosition <= LIMITS.mapPack
        ? check("map_pack_position", s, "pass", `You are number ${input.mapPosition} on Google Maps for ${q}, in the top three most searchers see.`)
        : check("map_pack_position", s, "warn", `You are number ${input.mapPosition} on Google Maps for ${q}; the top three get most of the calls.`);
  const organic =
    input.organicPosition == null
      ? check("organic_position", s, "fail", `Your website is not among the top ${input.organicResultsChecked} Google results for ${q}.`)
      : input.organicPosition <= LIMITS.organicFirstPage
        ? check("organic_position", s, "pass", `Your website is number ${input.organicPosition} on Google for ${q}, on the first page.`)
        : check("organic_position", s, "warn", `Your website is number ${input.organicPosition} on Google for ${q}, past the first page most searchers stop at.`);
  return [map, organic];
}

/** The business's rating and reviews against the average of the top map-pack competitors. */
export function competitorChecks(listing: ListingInput, input: CompetitorsInput): Check[] {
  const s: SectionId = "competitors";
  if (input.status === "failed") {
    const reason = `the competitors could not be looked up (${input.reason})`;
    return [unknown("competitor_rating", s, reason), unknown("competitor_reviews", s, reason)];
  }
  if (listing.status !== "found") {
    const reason = listing.status === "failed" ? `the Google listing could not be looked up (${listing.reason})` : "the Google listing was not found";
    return [unknown("competitor_rating", s, reason), unknown("competitor_reviews", s, reason)];
  }
  const top = input.competitors.slice(0, 3);
  const average = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v != null);
    return known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : null;
  };
  const names = top.map((c) => c.name).join(", ");
  const avgRating = average(top.map((c) => c.rating));
  const avgReviews = average(top.map((c) => c.reviewCount));
  const own = listing.listing;
  const rating: Check =
    own.rating == null || avgRating == null
      ? unknown("competitor_rating", s, top.length === 0 ? "no competitors were found" : "a rating was not given")
      : check(
          "competitor_rating",
          s,
          own.rating >= avgRating ? "pass" : own.rating >= avgRating - 0.3 ? "warn" : "fail",
          `Your rating is ${own.rating.toFixed(1)}; the top competitors (${names}) average ${avgRating.toFixed(1)}.`,
        );
  const reviews: Check =
    own.reviewCount == null || avgReviews == null
      ? unknown("competitor_reviews", s, top.length === 0 ? "no competitors were found" : "a review count was not given")
      : check(
          "competitor_reviews",
          s,
          own.reviewCount >= avgReviews ? "pass" : own.reviewCount >= avgReviews / 2 ? "warn" : "fail",
          `You have ${own.reviewCount} reviews; the top competitors (${names}) average ${Math.round(avgReviews)}.`,
        );
  return [rating, reviews];
}

export type AuditInputs = {
  page: PageInput;
  listing: ListingInput;
  pageSpeed: PageSpeedInput;
  rank: RankInput;
  competitors: CompetitorsInput;
};

/** Every check of one audit, in a stable order. */
export function runChecks(inputs: AuditInputs): Check[] {
  return [
    ...pageChecks(inputs.page),
    ...napChecks(inputs.page, inputs.listing),
    ...listingChecks(inputs.listing),
    ...pageSpeedChecks(inputs.pageSpeed),
    ...rankChecks(inputs.rank),
    ...competitorChecks(inputs.listing, inputs.competitors),
  ];
}

/** A step's new result replaces the stored one unless it failed while the stored one is good (never "not ranked" from a failed call). */
export function keepGoodResult<T extends { status: string }>(stored: T | null | undefined, next: T): T {
  if (next.status === "failed" && stored && stored.status !== "failed") return stored;
  return next;
}
