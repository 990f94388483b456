// Text messages' countries, prices and segments (issue 39, SMS pumping): which country a number is in, which
// countries a business may text (its own, plus what the operator allows), what one outbound segment costs there, and
// how many segments a body takes as carriers count them. Pure: shared by the meter, the review requests and the web.
import { normalizePhoneE164 } from "./nap";

/**
 * What one outbound SMS segment costs us, per destination country, in US dollars.
 * Source: Twilio's published SMS pricing per country, outbound messages (https://www.twilio.com/en-us/sms/pricing/us,
 * and the same page for each country: /sms/pricing/ca, /gb, …), the dearest carrier of each country, rounded up; the
 * US figure adds the carriers' pass-through fees for registered 10DLC traffic (up to $0.005 a segment). Prices change:
 * check them there and update this table. A country that is not here cannot be texted at all (no price, no text).
 */
export const SMS_COUNTRIES = {
  US: { name: "the United States", callingCode: "1", usdPerSegment: 0.0133 },
  CA: { name: "Canada", callingCode: "1", usdPerSegment: 0.0083 },
  GB: { name: "the United Kingdom", callingCode: "44", usdPerSegment: 0.053 },
  IE: { name: "Ireland", callingCode: "353", usdPerSegment: 0.083 },
  AU: { name: "Australia", callingCode: "61", usdPerSegment: 0.055 },
  NZ: { name: "New Zealand", callingCode: "64", usdPerSegment: 0.12 },
  DE: { name: "Germany", callingCode: "49", usdPerSegment: 0.095 },
  FR: { name: "France", callingCode: "33", usdPerSegment: 0.09 },
  ES: { name: "Spain", callingCode: "34", usdPerSegment: 0.085 },
  IT: { name: "Italy", callingCode: "39", usdPerSegment: 0.095 },
  NL: { name: "the Netherlands", callingCode: "31", usdPerSegment: 0.115 },
  BE: { name: "Belgium", callingCode: "32", usdPerSegment: 0.1 },
  MX: { name: "Mexico", callingCode: "52", usdPerSegment: 0.06 },
} as const satisfies Record<string, { name: string; callingCode: string; usdPerSegment: number }>;
export type SmsCountry = keyof typeof SMS_COUNTRIES;

/** Where a business's texts go when nothing says its country (numbers typed without + are read as North American). */
export const DEFAULT_SMS_COUNTRY: SmsCountry = "US";

/** Canada's area codes in the North American Numbering Plan (+1); the others not listed below are the US's. */
const CANADA_AREA_CODES = new Set(
  "204 226 236 249 250 257 263 273 289 306 343 354 365 367 368 382 387 403 416 418 428 431 437 438 450 460 468 474 506 514 519 548 579 581 584 587 600 604 613 622 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905 942".split(" "),
);
/** +1 area codes of the Caribbean and the Pacific territories: other countries (and the usual SMS-pumping targets). */
const OTHER_NANP_AREA_CODES = new Set("242 246 264 268 284 340 345 441 473 649 658 664 670 671 684 721 758 767 784 787 809 829 849 868 869 876 939".split(" "));

/** The country of an E.164 number, among those texts can go to (null: another country, or not a number). */
export function smsCountryOf(e164: string | null | undefined): SmsCountry | null {
  const match = /^\+(\d{8,15})$/.exec(e164 ?? "");
  if (!match) return null;
  const digits = match[1]!;
  if (digits.startsWith("1")) {
    const area = digits.slice(1, 4);
    if (OTHER_NANP_AREA_CODES.has(area)) return null;
    return CANADA_AREA_CODES.has(area) ? "CA" : "US";
  }
  for (const length of [3, 2, 1]) {
    const code = digits.slice(0, length);
    const found = (Object.keys(SMS_COUNTRIES) as SmsCountry[]).find((c) => c !== "US" && c !== "CA" && SMS_COUNTRIES[c].callingCode === code);
    if (found) return found;
  }
  return null;
}

/** The business's own country: its phone number's (Business Settings), else the default. */
export function businessSmsCountry(companyPhone: string | null | undefined): SmsCountry | null {
  if (!companyPhone?.trim()) return DEFAULT_SMS_COUNTRY;
  const e164 = normalizePhoneE164(companyPhone);
  return e164 ? smsCountryOf(e164) : DEFAULT_SMS_COUNTRY;
}

/** The operator's list ("CA, GB"): the codes of the table it names, anything else ignored. */
export function parseSmsCountries(raw: string | null | undefined): SmsCountry[] {
  return [...new Set((raw ?? "").split(/[\s,;]+/).map((c) => c.trim().toUpperCase()))].filter((c): c is SmsCountry => c in SMS_COUNTRIES);
}

/** Where a business may text: its own country and the ones the operator allows every business. */
export function allowedSmsCountries(own: SmsCountry | null, extra: readonly SmsCountry[]): Set<SmsCountry> {
  return new Set([...(own ? [own] : []), ...extra]);
}

/** Whether a text may go to this number: a priced country the business may text. */
export function maySmsTo(e164: string, allowed: ReadonlySet<SmsCountry>): boolean {
  const country = smsCountryOf(e164);
  return country !== null && allowed.has(country);
}

/** The refusal a customer's row gets when their number is elsewhere and they gave no email address. */
export function smsCountryRefusal(own: SmsCountry | null): string {
  return own
    ? `Text messages go only to numbers in ${SMS_COUNTRIES[own].name}, and this customer has no email address.`
    : "Text messages can't go to this customer's country, and this customer has no email address.";
}

export function smsUsdPerSegment(country: SmsCountry): number {
  return SMS_COUNTRIES[country].usdPerSegment;
}

// GSM 03.38: the basic table (one septet each) and the extension table (an escape and the character: two septets).
const GSM7_BASIC = new Set([..."@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"]);
const GSM7_EXTENSION = new Set([..."\f^{}\\[~]|€"]);

export type SmsEncoding = "GSM-7" | "UCS-2";

/** GSM-7 when every character is in its basic or extension table, else UCS-2 (any other character, an emoji). */
export function smsEncoding(body: string): SmsEncoding {
  for (const ch of body) if (!GSM7_BASIC.has(ch) && !GSM7_EXTENSION.has(ch)) return "UCS-2";
  return "GSM-7";
}

/**
 * How many segments a body takes, as carriers count them: GSM-7 in septets (an extension character takes two), 160
 * alone or 153 a part when concatenated; UCS-2 in 16-bit units (an emoji takes two), 70 alone or 67 a part. A part
 * never splits an extension character's escape from it, nor an emoji's two halves.
 */
export function smsSegments(body: string): number {
  const gsm = smsEncoding(body) === "GSM-7";
  const units = gsm ? [...body].map((ch) => (GSM7_EXTENSION.has(ch) ? 2 : 1)) : [...body].map((ch) => ch.length);
  const total = units.reduce((a, b) => a + b, 0);
  if (total <= (gsm ? 160 : 70)) return 1;
  const part = gsm ? 153 : 67;
  let segments = 1;
  let used = 0;
  for (const size of units) {
    if (used + size > part) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return segments;
}
