// Name, address and phone (NAP) normalised and compared, so the audit never flags a DBA suffix, a suite number,
// a phone format or a call-tracking number as a wrong listing (issue 18's traps).

export type NapVerdict = "pass" | "warn" | "fail" | "unknown";

export type NapResult = { verdict: NapVerdict; evidence: string; reason?: string };

const LEGAL_SUFFIXES = new Set([
  "llc", "inc", "incorporated", "co", "company", "corp", "corporation", "ltd", "limited", "llp", "pllc", "lp", "pc",
]);

const DBA = /\b(?:d\s*\/?\s*b\s*\/?\s*a|doing business as)\b/i;

function basicWords(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .replace(/\b([a-z])\.(?=[a-z]\.)/g, "$1") // "l.l.c." → "llc."
    .replace(/[^a-z0-9#]+/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

/** A business name reduced to what identifies it: case, punctuation, "&"/"and", a leading "The" and legal suffixes dropped. */
export function normalizeName(name: string): string {
  const words = basicWords(name.replace(/#/g, " "));
  if (words[0] === "the" && words.length > 1) words.shift();
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1]!)) words.pop();
  // "L L C" written with spaces
  if (words.length > 3 && words.slice(-3).join("") === "llc") words.splice(-3);
  return words.join(" ");
}

/** Every name a business goes by: "Smith Holdings LLC dba Joe's Plumbing" is both. */
export function nameVariants(name: string): string[] {
  return name
    .split(DBA)
    .map((part) => normalizeName(part))
    .filter((part) => part.length > 0);
}

/** Compares the name on the site with the listing's. A name that differs is a warning, never a failure: DBAs differ legitimately. */
export function compareNames(site: string | null | undefined, listing: string | null | undefined): NapResult {
  if (!site?.trim()) return { verdict: "unknown", evidence: "The site does not state the business name in a form we can read.", reason: "no name on the site" };
  if (!listing?.trim()) return { verdict: "unknown", evidence: "The listing has no name to compare with.", reason: "no listing name" };
  const a = nameVariants(site);
  const b = nameVariants(listing);
  if (a.some((x) => b.includes(x))) {
    return { verdict: "pass", evidence: `The site's name "${site.trim()}" matches the listing's "${listing.trim()}".` };
  }
  const contained = a.some((x) => b.some((y) => containsWords(x, y) || containsWords(y, x)));
  if (contained) {
    return { verdict: "pass", evidence: `The site's name "${site.trim()}" is a form of the listing's "${listing.trim()}".` };
  }
  return {
    verdict: "warn",
    evidence: `The site calls the business "${site.trim()}" but the Google listing says "${listing.trim()}".`,
  };
}

function containsWords(longer: string, shorter: string): boolean {
  const words = shorter.split(" ");
  return words.length >= 2 && ` ${longer} `.includes(` ${shorter} `);
}

const STREET_WORDS: Record<string, string> = {
  street: "st", str: "st", avenue: "ave", av: "ave", avn: "ave", road: "rd", boulevard: "blvd", blv: "blvd",
  drive: "dr", drv: "dr", lane: "ln", court: "ct", parkway: "pkwy", pky: "pkwy", highway: "hwy", hiway: "hwy",
  place: "pl", terrace: "ter", circle: "cir", square: "sq", trail: "trl", way: "way", alley: "aly",
  expressway: "expy", freeway: "fwy", turnpike: "tpke", route: "rte", center: "ctr", centre: "ctr", plaza: "plz",
  north: "n", south: "s", east: "e", west: "w", northeast: "ne", northwest: "nw", southeast: "se", southwest: "sw",
  mount: "mt", saint: "st", fort: "ft", first: "1st", second: "2nd", third: "3rd", fourth: "4th", fifth: "5th",
};

const STATES: Record<string, string> = {
  alabama: "al", alaska: "ak", arizona: "az", arkansas: "ar", california: "ca", colorado: "co", connecticut: "ct",
  delaware: "de", florida: "fl", georgia: "ga", hawaii: "hi", idaho: "id", illinois: "il", indiana: "in", iowa: "ia",
  kansas: "ks", kentucky: "ky", louisiana: "la", maine: "me", maryland: "md", massachusetts: "ma", michigan: "mi",
  minnesota: "mn", mississippi: "ms", missouri: "mo", montana: "mt", nebraska: "ne", nevada: "nv",
  "new hampshire": "nh", "new jersey": "nj", "new mexico": "nm", "new york": "ny", "north carolina": "nc",
  "north dakota": "nd", ohio: "oh", oklahoma: "ok", oregon: "or", pennsylvania: "pa", "rhode island": "ri",
  "south carolina": "sc", "south dakota": "sd", tennessee: "tn", texas: "tx", utah: "ut", vermont: "vt",
  virginia: "va", washington: "wa", "west virginia": "wv", wisconsin: "wi", wyoming: "wy",
  "district of columbia": "dc",
};

// A unit word (or "#") and its number or letter: "Suite 200", "Ste. 5B", "Unit B-4", "#12". A word after it that is not
// a number ("Post Office Road") is left alone.
const UNIT = /(?:\b(?:suite|ste|unit|apt|apartment|room|rm|floor|bldg|building|office|ofc)\b\.?\s*#?\s*|#\s*)(?:[a-z]{0,2}-?\d[a-z0-9-]*|[a-z])\b/gi;
const COUNTRY_TAIL = /[\s,]*(?:usa|u\.s\.a\.?|united states(?: of america)?|us)\s*\.?$/i;

/** An address as matching tokens: suite/unit numbers, ZIP+4, the country and abbreviations all normalised away. */
export function normalizeAddress(address: string): string {
  let text = address.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  text = text.replace(COUNTRY_TAIL, "");
  text = text.replace(UNIT, " ");
  text = text.replace(/\b(\d{5})-\d{4}\b/g, "$1");
  for (const [state, code] of Object.entries(STATES)) {
    if (state.includes(" ")) text = text.replace(new RegExp(`\\b${state}\\b`, "g"), code);
  }
  const words = basicWords(text.replace(/#/g, " ")).map((word) => STREET_WORDS[word] ?? STATES[word] ?? word);
  return words.join(" ");
}

/** Compares the site's address with the listing's; a partial address (no city or ZIP) that agrees as far as it goes passes. */
export function compareAddresses(site: string | null | undefined, listing: string | null | undefined): NapResult {
  if (!site?.trim()) return { verdict: "unknown", evidence: "The site does not state an address in a form we can read.", reason: "no address on the site" };
  if (!listing?.trim()) return { verdict: "unknown", evidence: "The listing has no address to compare with.", reason: "no listing address" };
  const a = normalizeAddress(site).split(" ");
  const b = normalizeAddress(listing).split(" ");
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const sameStart = shorter[0] === longer[0];
  if (sameStart && shorter.every((word) => longer.includes(word))) {
    return { verdict: "pass", evidence: `The site's address "${site.trim()}" matches the listing's "${listing.trim()}".` };
  }
  return {
    verdict: "fail",
    evidence: `The site gives the address "${site.trim()}" but the Google listing says "${listing.trim()}".`,
  };
}

const EXTENSION = /\s*(?:;?\s*ext\.?|extension|x|#)\s*=?\s*\d+\s*$/i;

/** The 10 digits of a North American number (country code, format and extension dropped), or null if it is not one. */
export function normalizePhone(phone: string): string | null {
  const digits = phone.trim().replace(/^tel:/i, "").replace(EXTENSION, "").replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) return digits.slice(1);
  if (digits.length === 10) return digits;
  return null;
}

export function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

const PHONE_IN_TEXT = /(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]?\d{4}\b/g;

/** The distinct phone numbers written in a text, as 10 digits each. */
export function phonesInText(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PHONE_IN_TEXT)) {
    const digits = normalizePhone(match[0]);
    if (digits) found.add(digits);
  }
  return [...found];
}

/**
 * Compares the site's phones with the listing's. Any one agreeing passes. A different number is a warning with both
 * numbers, never a failure: it is often a call-tracking number.
 */
export function comparePhones(sitePhones: readonly string[], listing: string | null | undefined): NapResult {
  const listingDigits = listing ? normalizePhone(listing) : null;
  if (!listingDigits) return { verdict: "unknown", evidence: "The listing has no phone number we can read.", reason: "no listing phone" };
  const site = [...new Set(sitePhones.map(normalizePhone).filter((p): p is string => p !== null))];
  if (site.length === 0) return { verdict: "unknown", evidence: "We found no phone number on the site to compare.", reason: "no phone on the site" };
  if (site.includes(listingDigits)) {
    return { verdict: "pass", evidence: `The site shows ${formatPhone(listingDigits)}, the same number as the Google listing.` };
  }
  return {
    verdict: "warn",
    evidence: `The site shows ${site.map(formatPhone).join(", ")} but the Google listing shows ${formatPhone(listingDigits)}: a different number (perhaps a call-tracking number).`,
  };
}

/** E.164: a North American number from any usual format (+1 added), or an international one written with +. */
export function normalizePhoneE164(raw: string | null | undefined): string | null {
  const value = (raw ?? "").trim();
  if (value === "") return null;
  if (value.startsWith("+") && !value.startsWith("+1")) {
    const digits = value.replace(/[\s().-]/g, "").slice(1);
    return /^[2-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
  }
  const na = normalizePhone(value);
  return na && /^[2-9]\d{2}[2-9]/.test(na) ? `+1${na}` : null;
}
