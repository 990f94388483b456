// The two search tools (spec part 2 §2, §3, §8, §9): form schema, result shapes, messages and the sample builders.
import { z } from "zod";
import { CUSTOMER_UNAVAILABLE } from "../../setup/rules/setup";
import type { SearchResult } from "../../../platform/providers/rules/search";

export { SEARCH_TIMEOUT_MS, timeoutMessage, type SearchResult } from "../../../platform/providers/rules/search";

/** Spec §5: both fields are required. */
export const SEARCH_FIELDS_REQUIRED = "Please enter both a keyword and location";
/** Spec §8: a failed live search shows sample data with this warning and the 'Using Sample Data' banner. */
export const SAMPLE_DATA_WARNING = "Unable to fetch results. Showing sample data instead.";
/** No search provider on this deployment: said as the other search tools say it, not as a failed search. */
export const SEARCH_UNAVAILABLE_SAMPLE_WARNING = `${CUSTOMER_UNAVAILABLE.searchTold} Showing sample data instead.`;
/** Spec §8: the provider answered, with nothing. */
export const NO_RESULTS_MESSAGE = "No results found for this keyword and location combination. Try different search terms.";
export const SAMPLE_RESULT_COUNT = 5;
/** Spec §2: the Local Services form's defaults. */
export const LOCAL_SERVICES_DEFAULTS = { businessType: "Coffee", location: "New York, NY, United States" } as const;
/** Spec §2: the empty states' 'Try Restaurant' button searches this. */
export const TRY_RESTAURANT = "Restaurant";

/**
 * Where the search tools start (issue 26): the business's own trade and city when Business Settings has them, the
 * spec's defaults otherwise. `tryLabel` is the empty states' button ("Try Restaurant" without a trade).
 */
export function searchStart(profile: { company_category?: string | null; company_location?: string | null } | null | undefined): {
  keyword: string;
  businessType: string;
  location: string;
  tryLabel: string;
  example: string;
} {
  const category = profile?.company_category?.trim();
  const trade = category && category !== "Other" ? category : null;
  const location = profile?.company_location?.trim() || LOCAL_SERVICES_DEFAULTS.location;
  return {
    keyword: trade ?? TRY_RESTAURANT,
    businessType: trade ?? LOCAL_SERVICES_DEFAULTS.businessType,
    location,
    tryLabel: `Try ${trade ?? TRY_RESTAURANT}`,
    example: `e.g. ${(trade ?? "plumber").toLowerCase()}`,
  };
}

const requiredText = z.string({ error: SEARCH_FIELDS_REQUIRED }).trim().min(1, SEARCH_FIELDS_REQUIRED).max(200);

/** GET /api/tools/google-results and the Google Search Results form. */
export const GoogleResultsQuery = z.object({ keyword: requiredText, location: requiredText });
export type GoogleResultsQuery = z.infer<typeof GoogleResultsQuery>;

/** GET /api/tools/local-services and the Local Services Analyzer form. */
export const LocalServicesQuery = z.object({ businessType: requiredText, location: requiredText });
export type LocalServicesQuery = z.infer<typeof LocalServicesQuery>;

export type GoogleResultsResponse = {
  results: SearchResult[];
  /** True when the results are built locally, not from the search provider. */
  sample: boolean;
  /** The warning to show with sample data (spec §8). */
  warning: string | null;
  /** Why the live search failed (spec §8 SERP API messages), when it did. */
  error: string | null;
  /** Shown when the provider found nothing. */
  message: string | null;
  /** Served from the 24-hour cache (no provider call). */
  cached: boolean;
};

/** Spec §3 local-service sample listing. */
export type LocalServiceListing = {
  title: string;
  description: string;
  displayUrl: string;
  targetUrl: string;
  position: number;
  rating: number;
  reviews: number;
  phone: string;
  address: string;
  badge: string | null;
  type: string;
  service_area: string;
  years_in_business: number;
  thumbnail: string | null;
  hours: string;
  hours_detail: string[];
  service_options: string[];
};

export type LocalServicesResponse = { listings: LocalServiceListing[]; sample: true; warning: string };

/** The analyzer never calls a provider (spec §7): its listings are always samples, and the page says so. */
export const LOCAL_SERVICES_SAMPLE_NOTE =
  "These listings are sample data built from the business type and location, not live Google results.";

/** Spec §9: these keywords select service-style sample ads. */
export const TRADE_KEYWORDS = [
  "electrician",
  "plumber",
  "hvac",
  "locksmith",
  "handyman",
  "house cleaner",
  "house cleaning",
  "carpet cleaner",
  "roofing",
  "roofer",
  "painter",
  "moving company",
  "lawn care",
  "garage door repair",
  "appliance repair",
] as const;

/** The trade keyword a business type names, if any (longest match wins: 'house cleaning' over 'house cleaner'). */
export function tradeKeyword(businessType: string): string | null {
  const text = businessType.toLowerCase();
  const hits = TRADE_KEYWORDS.filter((k) => text.includes(k));
  return hits.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** A small deterministic PRNG seeded from the input, so the same input always gives the same listings. */
function seededRandom(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

function titleCase(text: string): string {
  return text
    .trim()
    .split(/\s+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(" ");
}

/** "Austin, TX" → "Austin". */
function cityOf(location: string): string {
  return location.split(",")[0]!.trim() || location;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "") || "local";
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const SERVICE_NAME_PARTS = [
  ["Reliable", "Pro"],
  ["Top Choice", "Experts"],
  ["Family", "Services"],
  ["Precision", "Co."],
  ["Neighborhood", "Specialists"],
];
const BUSINESS_NAME_PARTS = [
  ["The Corner", ""],
  ["Main Street", "House"],
  ["Urban", "Spot"],
  ["Golden", "Co."],
  ["Blue Door", "Place"],
];
const STREETS = ["Main St", "Oak Ave", "Park Blvd", "Maple Dr", "Broadway", "Elm St", "Cedar Ln"];

/**
 * Five sample listings for a business type and location (spec §2, §3, §9). Service-style ads for the
 * trade keywords, business listings otherwise. Pure: the same input gives the same output.
 */
export function buildLocalServiceListings(input: LocalServicesQuery): LocalServiceListing[] {
  const businessType = input.businessType.trim();
  const location = input.location.trim();
  const city = cityOf(location);
  const trade = tradeKeyword(businessType);
  const type = titleCase(trade ?? businessType);
  const random = seededRandom(`${businessType.toLowerCase()}|${location.toLowerCase()}`);
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  return Array.from({ length: SAMPLE_RESULT_COUNT }, (_, i) => {
    const position = i + 1;
    const [first, last] = (trade ? SERVICE_NAME_PARTS : BUSINESS_NAME_PARTS)[i]!;
    const title = [first, titleCase(city), type, last].filter(Boolean).join(" ");
    const domain = `${slug(first!)}${slug(type)}${slug(city)}.com`;
    const rating = Math.round((4 + random()) * 10) / 10;
    const reviews = between(12, 480);
    const years = between(2, 30);
    // 555-0100 to 555-0199 is reserved for fiction: a sample number can never ring a real business.
    const phone = `(${between(201, 989)}) 555-01${String(between(0, 99)).padStart(2, "0")}`;
    const address = `${between(10, 9800)} ${STREETS[between(0, STREETS.length - 1)]}, ${location}`;
    const opens = trade ? between(6, 8) : between(6, 10);
    const closes = trade ? between(17, 20) : between(18, 23);
    const hours = `Open ${opens} AM – ${closes - 12} PM`;
    const hoursDetail = WEEKDAYS.map((day, d) =>
      d === 6 && trade ? `${day}: Closed` : `${day}: ${opens} AM – ${closes - 12} PM`,
    );
    const targetUrl = `https://www.google.com/maps/search/${encodeURIComponent(`${title} ${location}`)}`;
    const common = {
      title,
      displayUrl: `www.${domain}`,
      targetUrl,
      position,
      rating,
      reviews,
      phone,
      address,
      type,
      years_in_business: years,
      thumbnail: null,
      hours,
      hours_detail: hoursDetail,
    };
    if (trade) {
      return {
        ...common,
        description: `Licensed and insured ${trade} serving ${city} and nearby areas. Upfront pricing, same-day appointments and a satisfaction guarantee on every job.`,
        badge: i < 3 ? "Google Guaranteed" : "Google Screened",
        service_area: `Serves ${city} and surrounding areas`,
        service_options: ["Onsite services", "Online estimates", i % 2 === 0 ? "Emergency service" : "Weekend appointments"],
      };
    }
    return {
      ...common,
      description: `Popular ${businessType.toLowerCase()} in ${city}, loved by locals for friendly service and quality. Rated ${rating} by ${reviews} customers.`,
      badge: i === 0 ? "Top rated" : null,
      service_area: `${city} and nearby neighborhoods`,
      service_options: ["In-store shopping", i % 2 === 0 ? "Delivery" : "Takeout", "Curbside pickup"],
    };
  });
}

/** Five sample search results for a keyword and location, shown when the live search fails. Pure. */
export function buildSampleSearchResults(input: GoogleResultsQuery): SearchResult[] {
  const keyword = input.keyword.trim();
  const location = input.location.trim();
  const city = cityOf(location);
  const kw = titleCase(keyword);
  const s = slug(keyword);
  const pages = [
    { host: `www.yelp.com`, path: `/search?find_desc=${encodeURIComponent(keyword)}`, title: `Best ${kw} in ${city} - Updated Reviews`, text: `Find the best ${keyword} near ${location}: reviews, ratings, hours and photos from local customers.` },
    { host: `www.${s}${slug(city)}.com`, path: `/`, title: `${kw} in ${city} | Local, Licensed & Trusted`, text: `Looking for ${keyword} in ${city}? Friendly local team, fair prices and fast scheduling. Call today for a free quote.` },
    { host: `www.angi.com`, path: `/companylist/${s}.htm`, title: `Top 10 ${kw} Near ${city}`, text: `Compare top-rated ${keyword} pros in ${location}. Read verified reviews and book a vetted professional.` },
    { host: `www.bbb.org`, path: `/search?find_text=${encodeURIComponent(keyword)}`, title: `${kw} near ${city} | Better Business Bureau`, text: `BBB accredited ${keyword} businesses serving ${location}, with ratings and complaint history.` },
    { host: `www.facebook.com`, path: `/${s}${slug(city)}`, title: `${kw} ${city} - Home | Facebook`, text: `Follow our ${keyword} page for offers, tips and news from ${city}.` },
  ];
  return pages.map((p, i) => ({
    title: p.title,
    snippet: p.text,
    link: `https://${p.host}${p.path}`,
    displayedLink: `https://${p.host}`,
    position: i + 1,
    favicon: null,
  }));
}

/** The 24-hour cache key: case and spacing do not make a search different. */
export function searchCacheKey(input: GoogleResultsQuery): string {
  const norm = (v: string) => v.trim().toLowerCase().replace(/\s+/g, " ");
  return `${norm(input.keyword)}|${norm(input.location)}`;
}

/** 'Copy All Info' text: name, URL and description on separate lines (spec §2). */
export function listingAllInfo(listing: Pick<LocalServiceListing, "title" | "displayUrl" | "description">): string {
  return `${listing.title}\n${listing.displayUrl}\n${listing.description}`;
}
