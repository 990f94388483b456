// The Citation Tracker's pure rules (issue 27): what a listing page or a search result says about a business (JSON-LD,
// tel: links, visible text), whether it is this business at all, the five fields compared with the audit's matching
// rules (nap.ts, listing-match.ts), and the verdict per source with its evidence (the figures over the verdicts are in
// summary.ts). Shared by the worker (which judges) and the web (which shows).
import { z } from "zod";
import { readJsonLd, type PageFacts } from "../../audits/rules/checks";
import { SEARCHED_SOURCES, SEARCHES_PER_SOURCE, sourceById, type CitationSource, type SourceKind } from "./sources";
import { nameSimilarity } from "../../../domain/listing-match";
import { estimateMicro, fromMicro } from "../../../domain/metering";
import { compareAddresses, compareNames, formatPhone, normalizePhone, phonesInText } from "../../../domain/nap";

export type CitationVerdict = "consistent" | "inconsistent" | "duplicate" | "not_found" | "unknown";
export const CITATION_VERDICTS: readonly CitationVerdict[] = ["consistent", "inconsistent", "duplicate", "not_found", "unknown"];

export type FieldId = "name" | "street" | "city_zip" | "phone" | "website";
export const FIELD_IDS: readonly FieldId[] = ["name", "street", "city_zip", "phone", "website"];
export const FIELD_LABELS: Record<FieldId, string> = { name: "Name", street: "Street address", city_zip: "City and ZIP", phone: "Phone", website: "Website" };

/** `tracking`: a different number that is a call-tracking number (the source's own, or one the business's site shows). */
export type FieldMatch = "match" | "differs" | "tracking" | "missing" | "not_compared";

export type FieldView = { listing: string | null; expected: string | null; match: FieldMatch; note?: string };
export type ListingFieldsView = Record<FieldId, FieldView>;

/** What a listing (page or search result) says, as read. */
export type ListingFields = {
  name: string | null;
  street: string | null;
  city: string | null;
  region: string | null;
  zip: string | null;
  /** 10 digits each; the first is the listing's main number. */
  phones: string[];
  website: string | null;
  /** The page says its number is a tracking number. */
  trackingMarked: boolean;
};

/** The business as it should be listed: Business Settings or the prospect, completed from the audit's Google listing. */
export type ExpectedBusiness = {
  name: string;
  street: string | null;
  city: string | null;
  region: string | null;
  zip: string | null;
  /** 10 digits. */
  phone: string | null;
  website: string | null;
  /** Other numbers the business's own website shows (call tracking): a listing with one of them is not wrong. */
  knownPhones: string[];
  /** Hosts the business's website answers on (its redirects): a listing with one of them is the same site. */
  knownHosts: string[];
  /**
   * Where each compared detail came from (issue 39): the business's own details (Business Settings, or the prospect's)
   * or the Google listing its audit found, when its own lack it. Absent on scans stored before.
   */
  from?: Partial<Record<SourcedField, ExpectedSource>>;
  /** When the audit that found that Google listing ran. */
  googleAt?: string | null;
};

export type ExpectedSource = "own" | "google";
export type SourcedField = Exclude<FieldId, "name">;
const SOURCED_FIELDS: readonly SourcedField[] = ["street", "city_zip", "phone", "website"];

type AddressParts = { street: string | null; city: string | null; region: string | null; zip: string | null };

/**
 * What the listings should say: the business's own details first, and for each one they lack, the Google listing the
 * audit found (issue 39: with no street in Business Settings every street was "not compared"), saying which is which.
 */
export function expectedDetails(
  own: { address: string | null; area: string | null; phone: string | null; website: string | null },
  google: { address: string | null; phone: string | null; website: string | null; at: string } | null,
): Pick<ExpectedBusiness, "street" | "city" | "region" | "zip" | "phone" | "website" | "from" | "googleAt"> {
  const mine: AddressParts = splitAddress(own.address);
  const listed: AddressParts = splitAddress(google?.address ?? null);
  const from: Partial<Record<SourcedField, ExpectedSource>> = {};
  const pick = <T>(field: SourcedField, a: T | null, b: T | null): T | null => {
    if (a !== null) from[field] = "own";
    else if (b !== null) from[field] = "google";
    return a ?? b;
  };
  const street = pick("street", mine.street, listed.street);
  // The city (and its region and ZIP) as one detail: the own city with the listing's ZIP could name two places.
  const ownCity = mine.city ?? own.area?.split(",")[0]?.trim() ?? null;
  const cityParts = ownCity ? { city: ownCity, region: mine.region, zip: mine.zip } : null;
  const place = pick("city_zip", cityParts, listed.city ? { city: listed.city, region: listed.region, zip: listed.zip } : null);
  const phone = pick("phone", normalizePhone(own.phone ?? ""), normalizePhone(google?.phone ?? ""));
  const website = pick("website", own.website?.trim() || null, google?.website?.trim() || null);
  const usedGoogle = SOURCED_FIELDS.some((f) => from[f] === "google");
  return { street, city: place?.city ?? null, region: place?.region ?? null, zip: place?.zip ?? null, phone, website, from, googleAt: usedGoogle ? (google?.at ?? null) : null };
}

const SOURCE_FIELD_WORDS: Record<SourcedField, string> = { street: "street address", city_zip: "city and ZIP", phone: "phone", website: "website" };

/**
 * Which source the expected details came from, in a sentence for the page: "Compared with your Business Settings (name,
 * city and ZIP, phone) and your Google listing as the audit of 2026-11-20 found it (street address)." Null for scans
 * stored before the sources were kept.
 */
export function expectedSourcesText(expected: ExpectedBusiness, kind: "own" | "prospect"): string | null {
  if (!expected.from) return null;
  const fields = (source: ExpectedSource) => SOURCED_FIELDS.filter((f) => expected.from![f] === source).map((f) => SOURCE_FIELD_WORDS[f]);
  const ownWords = kind === "own" ? "your Business Settings" : "the prospect's details";
  const parts = [`${ownWords} (${["name", ...fields("own")].join(", ")})`];
  const fromGoogle = fields("google");
  if (fromGoogle.length > 0) {
    const whose = kind === "own" ? "your Google listing" : "its Google listing";
    parts.push(`${whose} as the Local Search Audit${expected.googleAt ? ` of ${expected.googleAt.slice(0, 10)}` : ""} found it (${fromGoogle.join(", ")})`);
  }
  const missing = SOURCED_FIELDS.filter((f) => !expected.from![f]).map((f) => SOURCE_FIELD_WORDS[f]);
  return `Compared with ${parts.join(" and ")}.${missing.length > 0 ? ` Not known, so not compared: ${missing.join(", ")}.` : ""}`;
}

/** A map-pack competitor (from the audit and the grid), looked up by phone on the same sources. */
export type CitationCompetitor = { name: string; phone: string | null };

export type ListingEvidence = {
  url: string;
  /** `page`: read from the listing page; `snippet`: from the search result (the page could not be read or shows nothing). */
  from: "page" | "snippet";
  fields: ListingFieldsView;
  readAt: string;
};

/** One source's answer in a scan (GET /api/citations/scans/:id `sources[]`). */
export type CitationSourceResult = {
  source: string;
  name: string;
  kind: SourceKind;
  lookup: CitationSource["lookup"];
  /** `pending` while the source has not answered; the verdict is `unknown` until it has. */
  state: "pending" | "done";
  verdict: CitationVerdict;
  url: string | null;
  fields: ListingFieldsView | null;
  evidence: string;
  /** Every listing of the business found on the source (two or more: a duplicate). */
  listings: ListingEvidence[];
  searches: number;
  checkedAt: string | null;
  fix_url: string;
  /** Competitors found listed on this source. */
  competitors: string[];
  /** Two or more competitors are listed here and the business is not. */
  gap: boolean;
};

export type CitationSummary = {
  /** Sources looked up (searched, or read from the audit); manual sources are not counted. */
  checked: number;
  listed: number;
  consistent: number;
  inconsistent: number;
  duplicates: number;
  not_found: number;
  unknown: number;
  gaps: number;
  /** Sources with no lookup (claim links only). */
  manual: number;
  /** 0–100: half for being listed where we could tell, half for the listings agreeing; null before anything answered. */
  score: number | null;
};

export type FixItem = {
  source: string;
  name: string;
  kind: "correct" | "duplicate" | "gap" | "add" | "aggregator";
  text: string;
  corrections: { field: FieldId; from: string | null; to: string }[];
  url: string;
};

export type CitationScanStatus = "queued" | "running" | "done";

export type CitationScanView = {
  id: string;
  status: CitationScanStatus;
  business: { kind: "own" | "prospect"; prospectId: string | null; name: string };
  expected: ExpectedBusiness;
  competitors: CitationCompetitor[];
  createdAt: string;
  finishedAt: string | null;
  trigger: "manual" | "cron";
  estimate: { searches: number; costUsd: number };
  sources: CitationSourceResult[];
  summary: CitationSummary;
  fixes: FixItem[];
  /** What changed since the business's previous finished scan. */
  changes: string[];
  previous: { id: string; createdAt: string } | null;
};

export type CitationScanSummaryRow = Pick<CitationScanView, "id" | "status" | "createdAt" | "finishedAt" | "trigger" | "summary" | "changes">;

export type CitationEstimate = { searches: number; costUsd: number; allowanceLeftUsd: number | null; allowed: boolean };

/** POST /api/citations/scans. */
export const CitationScanRequest = z.object({
  business: z.union([z.literal("own"), z.string().trim().min(1).max(100)], { error: "business: own or a prospect id" }),
});
export type CitationScanRequest = z.infer<typeof CitationScanRequest>;

/** Plan limits for a user's own scans: Free one a calendar month, Self Service one a week; admins none. */
export const CITATION_SCAN_LIMITS = { freePerMonth: 1, selfServiceEveryDays: 7 } as const;

/** Searches a scan makes and what they cost at the meter's price. */
export function citationEstimate(): { searches: number; costUsd: number; micro: number } {
  const searches = SEARCHED_SOURCES.length * SEARCHES_PER_SOURCE;
  const micro = searches * estimateMicro({ kind: "search" });
  return { searches, costUsd: fromMicro(micro), micro };
}

// ——— reading a listing ———

const STATE_ZIP = /\b([A-Z]{2})\s+(\d{5})(?:-\d{4})?\b/;
/** "1200 Main St, Suite 300, Austin, TX 78701" in running text. */
const ADDRESS_IN_TEXT = /\b(\d{1,6}\s+[A-Za-z0-9.' ]{2,60}?(?:,?\s*(?:Suite|Ste\.?|Unit|#)\s*[\w-]+)?),\s*([A-Za-z.' ]{2,40}),\s*([A-Z]{2})\s+(\d{5})(?:-\d{4})?\b/;

/** Splits a one-line US address into street, city, state and ZIP ("1200 Main St, Suite 300, Austin, TX 78701"). */
export function splitAddress(address: string | null | undefined): { street: string | null; city: string | null; region: string | null; zip: string | null } {
  const empty = { street: null, city: null, region: null, zip: null };
  if (!address?.trim()) return empty;
  const parts = address
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p && !/^(usa|us|united states)$/i.test(p));
  const last = parts[parts.length - 1] ?? "";
  const stateZip = STATE_ZIP.exec(last) ?? /\b([A-Z]{2})\b/.exec(last);
  if (!stateZip || parts.length < 2) return { ...empty, street: parts.join(", ") || null };
  const region = stateZip[1]!;
  const zip = stateZip[2] ?? null;
  const before = last.slice(0, stateZip.index).trim();
  // "Austin TX 78701" in one part, or "Austin, TX 78701".
  const city = before || parts[parts.length - 2] || null;
  const streetParts = before ? parts.slice(0, -1) : parts.slice(0, -2);
  return { street: streetParts.join(", ") || null, city, region, zip };
}

function hostOf(url: string | null | undefined): string | null {
  if (!url?.trim()) return null;
  try {
    const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(url.trim()) ? url.trim() : `http://${url.trim()}`;
    return new URL(withScheme).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** The business name a directory page's title carries: "Joe's Plumbing - Austin, TX - Yelp" → "Joe's Plumbing". */
function nameFromTitle(title: string | null | undefined): string | null {
  const first = title?.split(/\s+[-|–—·]\s+|\s+\|\s*/)[0]?.trim();
  return first || null;
}

const TRACKING_MARK = /call[- ]tracking|tracking (?:phone )?number|calls? (?:are|is) forwarded|forwarding number/i;
const WEBSITE_IN_TEXT = /\b(?:website|web site)\s*:?\s*((?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/\S*)?)/i;

/** What a listing page says: JSON-LD first (the directories' own structured data), then tel: links and visible text. */
export function listingFromPage(facts: Pick<PageFacts, "jsonLd" | "telLinks" | "text" | "title" | "openGraph" | "finalUrl">, source: Pick<CitationSource, "domain">): ListingFields {
  const ld = readJsonLd(facts.jsonLd).businesses[0];
  const textAddress = ADDRESS_IN_TEXT.exec(facts.text);
  const phones: string[] = [];
  const add = (digits: string | null) => {
    if (digits && !phones.includes(digits)) phones.push(digits);
  };
  add(ld?.phone ? normalizePhone(ld.phone) : null);
  for (const link of facts.telLinks) add(normalizePhone(link));
  for (const digits of phonesInText(facts.text)) add(digits);
  const ldWebsite = ld?.url && hostOf(ld.url) && !hostOf(ld.url)!.endsWith(source.domain) ? ld.url : null;
  const textWebsite = WEBSITE_IN_TEXT.exec(facts.text)?.[1] ?? null;
  const website = ldWebsite ?? (textWebsite && !hostOf(textWebsite)?.endsWith(source.domain) ? textWebsite : null);
  return {
    name: ld?.name ?? facts.openGraph["og:title"] ?? nameFromTitle(facts.title),
    street: ld?.parts?.street ?? textAddress?.[1]?.trim() ?? null,
    city: ld?.parts?.city ?? textAddress?.[2]?.trim() ?? null,
    region: ld?.parts?.region ?? textAddress?.[3] ?? null,
    zip: ld?.parts?.zip ?? textAddress?.[4] ?? null,
    phones,
    website,
    trackingMarked: TRACKING_MARK.test(facts.text),
  };
}

/** What a search result's own title and snippet show (used when the page cannot be read or shows nothing). */
export function listingFromSnippet(result: { title: string; snippet: string }): ListingFields {
  const address = ADDRESS_IN_TEXT.exec(result.snippet);
  return {
    name: nameFromTitle(result.title),
    street: address?.[1]?.trim() ?? null,
    city: address?.[2]?.trim() ?? null,
    region: address?.[3] ?? null,
    zip: address?.[4] ?? null,
    phones: phonesInText(`${result.title} ${result.snippet}`),
    website: null,
    trackingMarked: TRACKING_MARK.test(result.snippet),
  };
}

/** A page shows something to compare: at least a phone or an address besides a name. */
export function hasListingFields(fields: ListingFields): boolean {
  return Boolean(fields.name) && (fields.phones.length > 0 || Boolean(fields.street) || Boolean(fields.city));
}

// ——— comparing ———

const norm = (text: string | null | undefined) => (text ?? "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

function sameCity(a: string | null, b: string | null): boolean | null {
  if (!a || !b) return null;
  return norm(a).replace(/^saint /, "st ") === norm(b).replace(/^saint /, "st ");
}

export function cityZipText(p: { city: string | null; region: string | null; zip: string | null }): string | null {
  const city = [p.city, [p.region, p.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return city || null;
}

/**
 * The five fields, the listing beside what it should say. A field the listing does not show is `missing` (never a
 * difference); a phone that differs is a call-tracking number when the source assigns its own, the page says so, or
 * the business's own site shows it; a website on another host the business's site redirects from is the same site.
 */
export function compareFields(expected: ExpectedBusiness, listing: ListingFields, source: Pick<CitationSource, "tracksCalls" | "name">): ListingFieldsView {
  const name: FieldView = (() => {
    if (!listing.name) return { listing: null, expected: expected.name, match: "missing" };
    const r = compareNames(expected.name, listing.name);
    return { listing: listing.name, expected: expected.name, match: r.verdict === "pass" ? "match" : "differs" };
  })();
  const street: FieldView = (() => {
    if (!expected.street) return { listing: listing.street, expected: null, match: "not_compared" };
    if (!listing.street) return { listing: null, expected: expected.street, match: "missing" };
    const r = compareAddresses(expected.street, listing.street);
    return { listing: listing.street, expected: expected.street, match: r.verdict === "pass" ? "match" : "differs" };
  })();
  const cityZip: FieldView = (() => {
    const exp = cityZipText(expected);
    const got = cityZipText(listing);
    if (!exp) return { listing: got, expected: null, match: "not_compared" };
    if (!listing.city && !listing.zip) return { listing: null, expected: exp, match: "missing" };
    const city = sameCity(expected.city, listing.city);
    const zip = expected.zip && listing.zip ? expected.zip === listing.zip.slice(0, 5) : null;
    const differs = city === false || zip === false;
    return { listing: got, expected: exp, match: differs ? "differs" : "match" };
  })();
  const phone: FieldView = (() => {
    const exp = expected.phone ? formatPhone(expected.phone) : null;
    const main = listing.phones[0] ?? null;
    if (!expected.phone) return { listing: main ? formatPhone(main) : null, expected: null, match: "not_compared" };
    if (!main) return { listing: null, expected: exp, match: "missing" };
    if (listing.phones.includes(expected.phone)) return { listing: formatPhone(expected.phone), expected: exp, match: "match" };
    const shown = formatPhone(main);
    if (expected.knownPhones.includes(main)) return { listing: shown, expected: exp, match: "tracking", note: "Your own website shows this number too (a call-tracking number): not wrong." };
    if (source.tracksCalls || listing.trackingMarked) {
      return { listing: shown, expected: exp, match: "tracking", note: `A call-tracking number ${source.name} assigns: calls to it reach you, so it is not wrong.` };
    }
    return { listing: shown, expected: exp, match: "differs" };
  })();
  const website: FieldView = (() => {
    const expHost = hostOf(expected.website);
    if (!expHost) return { listing: listing.website, expected: null, match: "not_compared" };
    const got = hostOf(listing.website);
    if (!got) return { listing: null, expected: expected.website, match: "missing" };
    const same = got === expHost || expected.knownHosts.map((h) => h.replace(/^www\./, "")).includes(got);
    return { listing: listing.website, expected: expected.website, match: same ? "match" : "differs", ...(same && got !== expHost ? { note: "Redirects to your website." } : {}) };
  })();
  return { name, street, city_zip: cityZip, phone, website };
}

/**
 * Whether a listing is this business: the name is close (half its words or more) and something that identifies a
 * place agrees (the phone, a number the site shows, the city, or the website). The same phone under another name is
 * another business; the same name in another city with another phone is too.
 */
export function isTheBusiness(expected: ExpectedBusiness, listing: ListingFields): boolean {
  if (!listing.name || nameSimilarity(expected.name, listing.name) < 0.5) return false;
  const phones = [expected.phone, ...expected.knownPhones].filter((p): p is string => p !== null);
  if (listing.phones.some((p) => phones.includes(p))) return true;
  if (sameCity(expected.city, listing.city) === true) return true;
  const host = hostOf(listing.website);
  return host !== null && (host === hostOf(expected.website) || expected.knownHosts.includes(host));
}

/** The competitors this listing is: its phone is theirs and its name is close to theirs. */
export function competitorsIn(competitors: readonly CitationCompetitor[], listing: ListingFields): string[] {
  return competitors
    .filter((c) => {
      const phone = c.phone ? normalizePhone(c.phone) : null;
      return phone !== null && listing.phones.includes(phone) && listing.name !== null && nameSimilarity(c.name, listing.name) >= 0.5;
    })
    .map((c) => c.name);
}

// ——— the verdict per source ———

/** A candidate page from the source's search results: its result, and the page as read (or why it could not be). */
export type Candidate = {
  url: string;
  title: string;
  snippet: string;
  page: { ok: true; fields: ListingFields } | { ok: false; reason: string } | null;
};

export type SourceLookup = {
  searches: number;
  /** The searches did not all answer (the source is `unknown`, never `not_found`). */
  searchFailed: string | null;
  candidates: Candidate[];
  checkedAt: string;
};

const dateOf = (iso: string) => iso.slice(0, 10);

function differingFields(view: ListingFieldsView): FieldId[] {
  return FIELD_IDS.filter((f) => view[f].match === "differs");
}

function describeDifferences(view: ListingFieldsView): string {
  return differingFields(view)
    .map((f) => `${FIELD_LABELS[f].toLowerCase()} "${view[f].listing}" (should be "${view[f].expected}")`)
    .join("; ");
}

function pending(source: CitationSource): CitationSourceResult {
  return {
    source: source.id,
    name: source.name,
    kind: source.kind,
    lookup: source.lookup,
    state: "pending",
    verdict: "unknown",
    url: null,
    fields: null,
    evidence: "Not looked up yet.",
    listings: [],
    searches: 0,
    checkedAt: null,
    fix_url: source.claimUrl,
    competitors: [],
    gap: false,
  };
}

export function pendingResult(sourceId: string): CitationSourceResult {
  return pending(sourceById(sourceId)!);
}

/** A source with no lookup: its claim link, and what it feeds; never a verdict it did not earn. */
export function manualResult(source: CitationSource): CitationSourceResult {
  return { ...pending(source), state: "done", evidence: `No lookup exists for ${source.name}. ${source.note ?? ""}`.trim() };
}

/** A source whose lookup failed for good (searches failed, or the allowance ran out). */
export function failedResult(source: CitationSource, reason: string, searches: number, at: string): CitationSourceResult {
  return { ...pending(source), state: "done", searches, checkedAt: at, evidence: `Could not be checked on ${dateOf(at)}: ${reason}. This is not a "not listed".` };
}

/** The verdict for one searched source, with the evidence for it. */
export function judgeSource(source: CitationSource, expected: ExpectedBusiness, competitors: readonly CitationCompetitor[], lookup: SourceLookup): CitationSourceResult {
  const base = { ...pending(source), state: "done" as const, searches: lookup.searches, checkedAt: lookup.checkedAt };
  const onDomain = lookup.candidates;
  const found: ListingEvidence[] = [];
  const unreadable: Candidate[] = [];
  const competitorsHere = new Set<string>();
  for (const c of onDomain) {
    const snippet = listingFromSnippet(c);
    const page = c.page?.ok ? c.page.fields : null;
    const usable = page && hasListingFields(page) ? page : null;
    for (const name of competitorsIn(competitors, usable ?? snippet)) competitorsHere.add(name);
    if (usable && isTheBusiness(expected, usable)) {
      found.push({ url: c.url, from: "page", fields: compareFields(expected, usable, source), readAt: lookup.checkedAt });
    } else if (!usable && hasListingFields(snippet) && isTheBusiness(expected, snippet)) {
      found.push({ url: c.url, from: "snippet", fields: compareFields(expected, snippet, source), readAt: lookup.checkedAt });
    } else if (c.page && !c.page.ok && !(hasListingFields(snippet) && snippet.name && nameSimilarity(expected.name, snippet.name) < 0.5)) {
      // A page we could not read whose result does not show another business: it may be this one.
      unreadable.push(c);
    }
  }
  const competitorNames = [...competitorsHere];
  const listedCompetitors = { competitors: competitorNames };
  if (found.length >= 2) {
    const first = found[0]!;
    const lines = found.map((l) => `${l.url}${l.from === "snippet" ? " (from the search result)" : ""}: phone ${l.fields.phone.listing ?? "not shown"}, street ${l.fields.street.listing ?? "not shown"}`);
    return {
      ...base,
      ...listedCompetitors,
      verdict: "duplicate",
      url: first.url,
      fields: first.fields,
      listings: found,
      evidence: `${found.length} listings of the business on ${source.name} (read ${dateOf(lookup.checkedAt)}): ${lines.join("; ")}.`,
    };
  }
  if (found.length === 1) {
    const only = found[0]!;
    const from = only.from === "snippet" ? " (from the search result: the page itself could not be read or shows nothing)" : "";
    const diff = differingFields(only.fields);
    const tracking = only.fields.phone.match === "tracking" ? ` The phone ${only.fields.phone.listing} is a call-tracking number, not a wrong one.` : "";
    return {
      ...base,
      ...listedCompetitors,
      verdict: diff.length > 0 ? "inconsistent" : "consistent",
      url: only.url,
      fields: only.fields,
      listings: found,
      evidence:
        diff.length > 0
          ? `The listing at ${only.url}${from} shows ${describeDifferences(only.fields)} (read ${dateOf(lookup.checkedAt)}).${tracking}`
          : `The listing at ${only.url}${from} agrees with your details (read ${dateOf(lookup.checkedAt)}).${tracking}`,
    };
  }
  if (unreadable.length > 0) {
    const c = unreadable[0]!;
    const reason = c.page && !c.page.ok ? c.page.reason : "it could not be read";
    return { ...base, ...listedCompetitors, url: c.url, verdict: "unknown", evidence: `A possible listing at ${c.url} could not be read (${reason}) on ${dateOf(lookup.checkedAt)}.` };
  }
  if (lookup.searchFailed) {
    return { ...base, ...listedCompetitors, verdict: "unknown", evidence: `The search failed on ${dateOf(lookup.checkedAt)} (${lookup.searchFailed}). This is not a "not listed".` };
  }
  return {
    ...base,
    ...listedCompetitors,
    verdict: "not_found",
    gap: competitorNames.length >= 2,
    evidence: `Not found after ${lookup.searches} searches on ${dateOf(lookup.checkedAt)}.${competitorNames.length > 0 ? ` Listed here: ${competitorNames.join(", ")}.` : ""}`,
  };
}

/** Google Business Profile, from the audit's matched listing (no search of ours). */
export function judgeGoogle(
  expected: ExpectedBusiness,
  audit: { status: "found"; listing: { name: string; address?: string | null; phone?: string | null; website?: string | null; mapsUrl?: string | null }; at: string } | { status: "not_found"; at: string } | null,
): CitationSourceResult {
  const source = sourceById("google")!;
  const base = { ...pending(source), state: "done" as const };
  if (!audit) return { ...base, evidence: "No Local Search Audit of this business yet: run one to check its Google listing." };
  if (audit.status === "not_found") {
    return { ...base, checkedAt: audit.at, evidence: `The Local Search Audit of ${dateOf(audit.at)} could not match a Google listing with confidence; pick it there to compare it.` };
  }
  const parts = splitAddress(audit.listing.address);
  const compared = compareFields(expected, { name: audit.listing.name, ...parts, phones: audit.listing.phone ? [normalizePhone(audit.listing.phone)].filter((p): p is string => p !== null) : [], website: audit.listing.website ?? null, trackingMarked: false }, source);
  // A detail taken from this very listing is not checked against itself.
  const fields = Object.fromEntries(
    FIELD_IDS.map((f) => [f, f !== "name" && expected.from?.[f] === "google" ? { listing: compared[f].listing, expected: compared[f].expected, match: "not_compared" as const, note: "Taken from this listing." } : compared[f]]),
  ) as ListingFieldsView;
  const diff = differingFields(fields);
  const url = audit.listing.mapsUrl ?? null;
  return {
    ...base,
    checkedAt: audit.at,
    verdict: diff.length > 0 ? "inconsistent" : "consistent",
    url,
    fields,
    listings: [{ url: url ?? "", from: "page", fields, readAt: audit.at }],
    evidence: diff.length > 0 ? `The Google listing (audit of ${dateOf(audit.at)}) shows ${describeDifferences(fields)}.` : `The Google listing (audit of ${dateOf(audit.at)}) agrees with your details.`,
  };
}

