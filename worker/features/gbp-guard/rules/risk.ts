// What a value would risk before the guard sends it to Google (issue 41), by the known causes of Business Profile
// suspensions in Google's guidelines for representing a business on Google
// (https://support.google.com/business/answer/3038177): the name is the real-world name, with no keywords, location,
// service or tagline; a PO box, a mailbox or a virtual office is not a business address; and a change of the address
// or of the primary category can send the profile back to verification. Pure: the worker checks, the web shows.
import type { GbpLocationFields, GuardedField } from "../../../platform/providers/rules/gbp-location";
import { categoryLabel, fieldText, sameFieldValue } from "./fields";

export type EditRiskCode = "name_keywords" | "name_city" | "name_superlative" | "address_change" | "po_box" | "shared_office" | "category_change";

export type EditRisk = { field: GuardedField; code: EditRiskCode; message: string };

export type EditRiskInput = {
  field: GuardedField;
  /** What Google shows now. */
  current: GbpLocationFields;
  /** What would be sent. */
  next: GbpLocationFields;
  /** The business's real-world name (Business Settings); without it, only the city and the superlatives are checked. */
  realName?: string | null;
  /** The business's city. */
  city?: string | null;
  /** The services it offers (their names), to say so when the name adds one. */
  services?: readonly string[];
};

/** The risks of sending `next` for `field`, each with what and why in plain words; [] when there are none. */
export function editRisks(input: EditRiskInput): EditRisk[] {
  switch (input.field) {
    case "title":
      return nameRisks(input);
    case "storefrontAddress":
      return addressRisks(input);
    case "categories":
      return categoryRisks(input);
    default:
      return [];
  }
}

// ---- the name ----

/** A word of a name, where it stands in the text (`start`, `end`) and as compared (`key`). */
type Token = { key: string; start: number; end: number };

const TOKEN = /#\s?\d+|[\p{L}\p{N}]+(?:['’./][\p{L}\p{N}]+)*/gu;
const LEGAL_SUFFIXES = new Set(["llc", "inc", "incorporated", "co", "company", "corp", "corporation", "ltd", "limited", "llp", "pllc", "lp", "pc"]);
const LINKING_WORDS = new Set(["the", "and", "of", "in", "at", "a", "an", "by", "for", "on", "to", "near"]);

/** A word as compared: case, accents, a possessive "'s", apostrophes and dots dropped ("Joe's" is "joe", "L.L.C." is "llc"). */
function wordKey(word: string): string {
  return word
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]s$/, "")
    .replace(/['’.\s]/g, "");
}

function tokens(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ key: wordKey(m[0]), start: m.index, end: m.index + m[0].length }));
}

/** Where `needle`'s words stand together in `hay`, or -1. */
function indexOfWords(hay: readonly string[], needle: readonly string[]): number {
  if (!needle.length) return -1;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    if (needle.every((word, j) => hay[i + j] === word)) return i;
  }
  return -1;
}

const quoted = (items: readonly string[]) => items.map((item) => `"${item}"`).join(", ");

function nameRisks({ next, current, realName, city, services }: EditRiskInput): EditRisk[] {
  const title = (next.title ?? "").normalize("NFC").trim();
  if (!title) return [];
  const real = realName?.trim() ? realName.normalize("NFC").trim() : null;
  const titleTokens = tokens(title);
  const titleKeys = titleTokens.map((t) => t.key);
  const realKeys = real ? tokens(real).map((t) => t.key) : [];
  const risks: EditRisk[] = [];

  if (real) {
    const extras = extraPhrases(title, titleTokens, new Set(realKeys));
    if (extras.length) {
      const service = (services ?? []).some((s) => {
        const keys = tokens(s).map((t) => t.key);
        return extras.some((phrase) => indexOfWords(tokens(phrase).map((t) => t.key), keys) >= 0);
      });
      risks.push({
        field: "title",
        code: "name_keywords",
        message: service
          ? `The name adds words that are not part of the business's real name (${quoted(extras)}), including a service you offer. Services belong in the categories and the description: Google suspends profiles whose name is stuffed with them.`
          : `The name adds words that are not part of the business's real name (${quoted(extras)}). Google suspends profiles whose name is stuffed with a city, a service or words like "best".`,
      });
    }
  }

  const cities = [city, next.storefrontAddress?.locality, current.storefrontAddress?.locality].map((c) => c?.trim() ?? "").filter(Boolean);
  const named: string[] = [];
  for (const c of cities) {
    const keys = tokens(c).map((t) => t.key);
    const at = indexOfWords(titleKeys, keys);
    if (at < 0 || (real && indexOfWords(realKeys, keys) >= 0)) continue;
    const text = title.slice(titleTokens[at]!.start, titleTokens[at + keys.length - 1]!.end);
    if (!named.some((n) => n.toLowerCase() === text.toLowerCase())) named.push(text);
  }
  if (named.length) {
    risks.push({
      field: "title",
      code: "name_city",
      message: real
        ? `The name adds the city (${quoted(named)}), which is not part of the business's real name. Google suspends profiles that add a location to the name.`
        : `The name includes the city (${quoted(named)}). Unless the city is part of the business's real name, Google may suspend the profile for adding a location to the name.`,
    });
  }

  const claims: string[] = [];
  for (const pattern of SUPERLATIVES) {
    const found = pattern.exec(title);
    if (found && !(real && pattern.test(real))) claims.push(found[0]);
  }
  if (claims.length) {
    risks.push({
      field: "title",
      code: "name_superlative",
      message: `The name adds a claim (${quoted(claims)}) that is not part of the business's real name. Google suspends profiles whose name carries words like "best", "#1" or "24/7".`,
    });
  }
  return risks;
}

/**
 * The title's words that the real name does not have, as the phrases they stand in ("Ridge Roofing - Roof Repair in
 * Austin" → "Roof Repair in Austin"); legal suffixes and linking words ("the", "and", "in") alone are never extra.
 */
function extraPhrases(text: string, title: readonly Token[], real: ReadonlySet<string>): string[] {
  const phrases: string[] = [];
  let run: Token[] = [];
  const close = () => {
    while (run.length && LINKING_WORDS.has(run[0]!.key)) run.shift();
    while (run.length && LINKING_WORDS.has(run[run.length - 1]!.key)) run.pop();
    if (run.length) phrases.push(text.slice(run[0]!.start, run[run.length - 1]!.end));
    run = [];
  };
  for (const token of title) {
    const last = run[run.length - 1];
    // A separator ("|", " - ", ",", ":") ends a phrase; a space, "&" or a hyphen inside a word ("Top-Rated") does not.
    if (last && !/^(?:\s*[&+]?\s*|-)$/.test(text.slice(last.end, token.start))) close();
    if (real.has(token.key) || LEGAL_SUFFIXES.has(token.key)) close();
    else run.push(token);
  }
  close();
  return [...new Set(phrases)];
}

/** Claims and taglines, not names: each is checked on its own, and allowed when the real name has it. */
const SUPERLATIVES: readonly RegExp[] = [
  /\bbest\b/i,
  /#\s?1\b/,
  /\bnumber\s+(?:one|1)\b/i,
  /\bno\.?\s?1\b/i,
  /\btop[\s-]+rated\b/i,
  /\bhighest[\s-]+rated\b/i,
  /\bcheapest\b/i,
  /\blowest[\s-]+prices?\b/i,
  /(?<![\w/])24\s?\/\s?7(?![\w/])/,
];

// ---- the address ----

const PO_BOX = /\bp\.?\s?o\.?\s?box\b|\bpost\s+office\s+box\b|\bpmb\b|\bprivate\s+mail\s?box\b/i;
// Markers of a virtual or shared office and of mailbox stores. A suite, unit or floor number is an ordinary address.
const SHARED_OFFICE = /\bvirtual\s+office\b|\bshared\s+office\b|\bco-?working\b|\bregus\b|\bwe\s?work\b|\bups\s+store\b|\bmail\s?boxes\s+etc\b|\bdavinci\s+virtual\b|\bservcorp\b|\bintelligent\s+office\b|\bexecutive\s+suites\b|(?<!private\s)\bmail\s?box(?:es)?\b/gi;

function addressRisks({ current, next }: EditRiskInput): EditRisk[] {
  const risks: EditRisk[] = [];
  if (!sameFieldValue("storefrontAddress", current, next)) {
    const text = fieldText("storefrontAddress", next);
    risks.push({
      field: "storefrontAddress",
      code: "address_change",
      message: text
        ? `The address changes to "${text}". Google may ask to verify the business again, and edits may not go live until it is.`
        : "The address is removed. Google may ask to verify the business again, and edits may not go live until it is.",
    });
  }
  const lines = (next.storefrontAddress?.addressLines ?? []).map((l) => l.trim()).filter(Boolean);
  const box = lines.filter((l) => PO_BOX.test(l));
  if (box.length) {
    risks.push({
      field: "storefrontAddress",
      code: "po_box",
      message: `The address is a PO box or mailbox (${quoted(box)}). Google does not allow one as a business address and suspends profiles that use one.`,
    });
  }
  const markers: string[] = [];
  for (const line of lines) {
    for (const m of line.matchAll(SHARED_OFFICE)) {
      if (!markers.some((k) => k.toLowerCase() === m[0].toLowerCase())) markers.push(m[0]);
    }
  }
  if (markers.length) {
    risks.push({
      field: "storefrontAddress",
      code: "shared_office",
      message: `The address looks like a virtual or shared office (${quoted(markers)}). Google suspends profiles at virtual offices, coworking spaces and mailbox stores unless staff work there in the stated hours.`,
    });
  }
  return risks;
}

// ---- the categories ----

function categoryRisks({ current, next }: EditRiskInput): EditRisk[] {
  const before = current.categories?.primaryCategory;
  const after = next.categories?.primaryCategory;
  if ((before?.name?.trim() ?? "") === (after?.name?.trim() ?? "")) return [];
  const label = (c: typeof before) => (c?.name ? `"${categoryLabel(c)}"` : "(none)");
  return [
    {
      field: "categories",
      code: "category_change",
      message: `The primary category changes from ${label(before)} to ${label(after)}. Google may ask to verify the business again after a change of the main category.`,
    },
  ];
}
