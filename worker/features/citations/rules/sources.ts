// The Citation Tracker's sources (issue 27): the US directories that matter for home services, each with its kind,
// how it is looked up, and the page where a business claims or corrects its listing. A source without a lookup says
// so (`lookup: "manual"`): we never claim to have checked what no search can reach, and we never "sync" a listing.

export type SourceKind = "data_aggregator" | "search_maps" | "general_directory" | "home_services";

export type CitationSource = {
  id: string;
  name: string;
  /** The domain searched with `site:` (and the host a candidate page must be on). */
  domain: string;
  kind: SourceKind;
  /**
   * `search`: web searches `site:<domain>` with the phone, then the name and city; `audit`: the Local Search Audit's
   * Google listing; `manual`: no lookup exists (the claim link and what the source feeds are shown instead).
   */
  lookup: "search" | "audit" | "manual";
  /** Where the business claims, adds or corrects its listing. */
  claimUrl: string;
  /** How much the source matters (reach, and what it feeds); orders the fix list. */
  weight: number;
  /** The source shows its own call-tracking numbers that forward to the business (a different number is not wrong). */
  tracksCalls?: boolean;
  /** One line on why the source matters or how it works (aggregators: whom they feed). */
  note?: string;
};

export const SOURCE_KIND_LABELS: Record<SourceKind, string> = {
  data_aggregator: "Data aggregator",
  search_maps: "Search and maps",
  general_directory: "General directory",
  home_services: "Home-services directory",
};

export const CITATION_SOURCES: readonly CitationSource[] = [
  { id: "data-axle", name: "Data Axle", domain: "data-axle.com", kind: "data_aggregator", lookup: "manual", weight: 100, claimUrl: "https://www.data-axle.com/update-your-business-listing/", note: "Feeds business data to search engines, maps, GPS and many directories (e.g. Yellowpages, MapQuest). No public lookup: submit or correct your listing there." },
  { id: "localeze", name: "Neustar Localeze", domain: "neustarlocaleze.biz", kind: "data_aggregator", lookup: "manual", weight: 98, claimUrl: "https://www.neustarlocaleze.biz/", note: "Feeds Bing, Apple Maps, Yelp and many directories. No public lookup: submit or correct your listing there." },
  { id: "google", name: "Google Business Profile", domain: "google.com", kind: "search_maps", lookup: "audit", weight: 96, claimUrl: "https://business.google.com/", note: "Read from the Local Search Audit's Google listing." },
  { id: "bing", name: "Bing Places", domain: "bingplaces.com", kind: "search_maps", lookup: "manual", weight: 90, claimUrl: "https://www.bingplaces.com/", note: "Bing's map listings are not in web search results; check and claim yours there (it can import your Google profile)." },
  { id: "apple", name: "Apple Business Connect", domain: "businessconnect.apple.com", kind: "search_maps", lookup: "manual", weight: 90, claimUrl: "https://businessconnect.apple.com/", note: "Apple Maps listings cannot be searched from the web: claim and check yours in Apple Business Connect." },
  { id: "yelp", name: "Yelp", domain: "yelp.com", kind: "general_directory", lookup: "search", weight: 88, claimUrl: "https://biz.yelp.com/" },
  { id: "facebook", name: "Facebook", domain: "facebook.com", kind: "general_directory", lookup: "search", weight: 85, claimUrl: "https://www.facebook.com/pages/create" },
  { id: "bbb", name: "BBB", domain: "bbb.org", kind: "general_directory", lookup: "search", weight: 80, claimUrl: "https://www.bbb.org/get-listed" },
  { id: "angi", name: "Angi", domain: "angi.com", kind: "home_services", lookup: "search", weight: 80, tracksCalls: true, claimUrl: "https://office.angi.com/" },
  { id: "homeadvisor", name: "HomeAdvisor", domain: "homeadvisor.com", kind: "home_services", lookup: "search", weight: 78, tracksCalls: true, claimUrl: "https://pro.homeadvisor.com/" },
  { id: "nextdoor", name: "Nextdoor", domain: "nextdoor.com", kind: "general_directory", lookup: "search", weight: 75, claimUrl: "https://business.nextdoor.com/" },
  { id: "yellowpages", name: "Yellowpages", domain: "yellowpages.com", kind: "general_directory", lookup: "search", weight: 74, claimUrl: "https://adsolutions.yp.com/listings/basic" },
  { id: "thumbtack", name: "Thumbtack", domain: "thumbtack.com", kind: "home_services", lookup: "search", weight: 72, tracksCalls: true, claimUrl: "https://www.thumbtack.com/pro" },
  { id: "houzz", name: "Houzz", domain: "houzz.com", kind: "home_services", lookup: "search", weight: 70, claimUrl: "https://www.houzz.com/for-pros" },
  { id: "foursquare", name: "Foursquare", domain: "foursquare.com", kind: "search_maps", lookup: "search", weight: 68, claimUrl: "https://foursquare.com/business/", note: "Also a data source for other apps and maps." },
  { id: "mapquest", name: "MapQuest", domain: "mapquest.com", kind: "search_maps", lookup: "search", weight: 66, claimUrl: "https://www.mapquest.com/", note: "Fed by the data aggregators: correct Data Axle and Localeze and MapQuest follows." },
  { id: "porch", name: "Porch", domain: "porch.com", kind: "home_services", lookup: "search", weight: 62, tracksCalls: true, claimUrl: "https://pro.porch.com/" },
  { id: "superpages", name: "Superpages", domain: "superpages.com", kind: "general_directory", lookup: "search", weight: 60, claimUrl: "https://adsolutions.yp.com/listings/basic" },
  { id: "buildzoom", name: "BuildZoom", domain: "buildzoom.com", kind: "home_services", lookup: "search", weight: 58, claimUrl: "https://www.buildzoom.com/contractor" },
  { id: "networx", name: "Networx", domain: "networx.com", kind: "home_services", lookup: "search", weight: 55, tracksCalls: true, claimUrl: "https://www.networx.com/join" },
  { id: "manta", name: "Manta", domain: "manta.com", kind: "general_directory", lookup: "search", weight: 55, claimUrl: "https://www.manta.com/claim" },
  { id: "threebestrated", name: "Three Best Rated", domain: "threebestrated.com", kind: "general_directory", lookup: "search", weight: 50, claimUrl: "https://threebestrated.com/" },
  { id: "chamberofcommerce", name: "Chamber of Commerce", domain: "chamberofcommerce.com", kind: "general_directory", lookup: "search", weight: 50, claimUrl: "https://www.chamberofcommerce.com/add-business" },
  { id: "hotfrog", name: "Hotfrog", domain: "hotfrog.com", kind: "general_directory", lookup: "search", weight: 45, claimUrl: "https://www.hotfrog.com/add-business" },
  { id: "merchantcircle", name: "MerchantCircle", domain: "merchantcircle.com", kind: "general_directory", lookup: "search", weight: 42, claimUrl: "https://www.merchantcircle.com/signup" },
  { id: "citysquares", name: "CitySquares", domain: "citysquares.com", kind: "general_directory", lookup: "search", weight: 40, claimUrl: "https://citysquares.com/" },
  { id: "brownbook", name: "Brownbook", domain: "brownbook.net", kind: "general_directory", lookup: "search", weight: 40, claimUrl: "https://www.brownbook.net/add-business/" },
  { id: "ezlocal", name: "EZlocal", domain: "ezlocal.com", kind: "general_directory", lookup: "search", weight: 38, claimUrl: "https://ezlocal.com/" },
  { id: "cylex", name: "Cylex", domain: "cylex.us.com", kind: "general_directory", lookup: "search", weight: 35, claimUrl: "https://www.cylex.us.com/" },
  { id: "alignable", name: "Alignable", domain: "alignable.com", kind: "general_directory", lookup: "search", weight: 35, claimUrl: "https://www.alignable.com/" },
];

export const SOURCE_IDS = CITATION_SOURCES.map((s) => s.id);

export function sourceById(id: string): CitationSource | undefined {
  return CITATION_SOURCES.find((s) => s.id === id);
}

/** The sources a scan searches (the others are read from the audit or are manual). */
export const SEARCHED_SOURCES = CITATION_SOURCES.filter((s) => s.lookup === "search");

/** Searches per searched source: `site:` with the phone (and the competitors' phones), then with the name and city. */
export const SEARCHES_PER_SOURCE = 2;

/** At most this many candidate pages are read per source. */
export const PAGES_PER_SOURCE = 4;

/** Whether a URL is on the source's domain (the domain itself or a subdomain). */
export function onSource(source: Pick<CitationSource, "domain">, url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === source.domain || host.endsWith(`.${source.domain}`);
}
