// Rules that derive a prospect's phone, tag, keyword, qualifying questions and search text.
import { type Category, TRADE_NOUNS } from "../../../domain/categories";

/** Keeps digits only, then applies the spec's country-prefix rule (part 1 §5). */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/\D/g, "");
  // An empty field stays empty: a lone "1" would look like a real number.
  if (digits === "") return "";
  if (raw.includes("+39") || digits.startsWith("39")) {
    return digits.startsWith("39") ? digits : `39${digits}`;
  }
  if (digits.length === 10) return `1${digits}`;
  if (digits.length >= 11) return digits;
  return `1${digits}`;
}

// The spec's order, first match wins, with one refinement: a generic word ("clean", "repair") names a
// category only when no specific trade word matches, so "Gutter cleaning" is Siding & Gutter Services and
// "Appliance repair" is Appliance Repair, not Cleaning Services and Handyman Services.
const TAG_RULES: ReadonlyArray<readonly [RegExp, Category, "specific" | "generic"]> = [
  [/roof/i, "Roofing", "specific"],
  [/remodel|renovation/i, "Remodeling", "specific"],
  [/plumb/i, "Plumbing", "specific"],
  [/electric/i, "Electrical Services", "specific"],
  [/hvac|air condition|heating/i, "HVAC", "specific"],
  [/landscape|lawn|garden/i, "Landscaping & Lawn Care", "specific"],
  [/pest|termite/i, "Pest Control", "specific"],
  [/clean/i, "Cleaning Services", "generic"],
  [/paint/i, "Painting", "specific"],
  [/floor/i, "Flooring", "specific"],
  [/handyman/i, "Handyman Services", "specific"],
  [/repair/i, "Handyman Services", "generic"],
  [/window|door/i, "Window & Door Services", "specific"],
  [/siding|gutter/i, "Siding & Gutter Services", "specific"],
  [/deck|patio/i, "Deck & Patio Construction", "specific"],
  [/pool/i, "Pool Services", "specific"],
  [/security|automation/i, "Home Security & Automation", "specific"],
  [/appliance/i, "Appliance Repair", "specific"],
  [/contract/i, "General Contracting", "specific"],
  [/inspect/i, "Home Inspections", "specific"],
  [/interior|design/i, "Interior Design", "specific"],
];

export function deriveTag(description: string): Category {
  for (const kind of ["specific", "generic"] as const) {
    for (const [pattern, tag, ruleKind] of TAG_RULES) {
      if (ruleKind === kind && pattern.test(description)) return tag;
    }
  }
  return "Other";
}

// The spec's trades in its order; "clean" is left to the category rules so a specific trade wins.
const TRADE_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/roof/i, "roofer"],
  [/plumb/i, "plumber"],
  [/hvac|air condition|heating/i, "hvac contractor"],
  [/landscap|lawn|garden/i, "landscaper"],
  [/electric/i, "electrician"],
  [/paint/i, "painter"],
];

/**
 * The trade word used in keywords: the spec's trade when one matches, else the trade noun of the derived
 * category (every one of the 21 has one), else the description's first word.
 */
export function deriveTrade(description: string): string {
  for (const [pattern, trade] of TRADE_RULES) {
    if (pattern.test(description)) return trade;
  }
  const category = deriveTag(description);
  if (category !== "Other") {
    // Siding alone is not gutter work.
    if (category === "Siding & Gutter Services" && !/gutter/i.test(description)) return "siding contractor";
    return TRADE_NOUNS[category];
  }
  const firstWord = description.trim().split(/\s+/)[0] ?? "";
  const lettersOnly = firstWord.replace(/[^\p{L}]/gu, "").toLowerCase();
  return lettersOnly === "" ? "business" : lettersOnly;
}

/** The part of an area before its first comma, lowercased: "Austin, TX" → "austin". */
export function areaPlace(area: string): string {
  return (area.split(",")[0] ?? "").trim().toLowerCase();
}

export function deriveKeyword(description: string, area: string): string {
  const trade = deriveTrade(description);
  const place = areaPlace(area);
  // Without a place "{trade} in " would be a broken keyword.
  return place === "" ? trade : `${trade} in ${place}`;
}

type QuestionTrade = "roofing" | "plumbing" | "hvac" | "landscaping" | "other";

function questionTrade(description: string): QuestionTrade {
  if (/roof/i.test(description)) return "roofing";
  if (/plumb/i.test(description)) return "plumbing";
  if (/hvac|air condition|heating/i.test(description)) return "hvac";
  if (/landscap|lawn|garden/i.test(description)) return "landscaping";
  return "other";
}

// Kept free of commas: the questions are stored comma-joined.
const TRADE_QUESTIONS: Record<QuestionTrade, readonly [string, string]> = {
  roofing: [
    "What type of roofing work do you need: a repair or a full replacement?",
    "What is your estimated budget for this roofing project?",
  ],
  plumbing: [
    "What type of plumbing issue are you dealing with?",
    "How urgent is the problem: is it an emergency or can it wait a few days?",
  ],
  hvac: [
    "Do you need a repair or routine maintenance or a new system installation?",
    "When would you like the HVAC work to be done?",
  ],
  landscaping: [
    "Which landscaping service are you interested in?",
    "How large is the property that needs work?",
  ],
  other: [
    "What specific services do you need?",
    "When would you like the work to be completed?",
  ],
};

export function qualifyingQuestions(description: string, area: string): string[] {
  const [second, third] = TRADE_QUESTIONS[questionTrade(description)];
  return [`Is your project located in or near ${area.trim()}?`, second, third];
}

/** Joins questions with "," as the spec stores them. */
export function questionsToText(questions: readonly string[]): string {
  return questions.join(",");
}

/**
 * Splits stored questions back. An area may contain a comma ("Austin, TX"), so when the text
 * holds questions we split only after a question mark; older plain text splits on every comma.
 */
export function questionsFromText(text: string | null | undefined): string[] {
  if (!text) return [];
  const parts = text.includes("?") ? text.split(/(?<=\?),/) : text.split(",");
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

export type ProspectSearchFields = {
  name: string | null | undefined;
  area: string | null | undefined;
  keyword: string | null | undefined;
  tag: string | null | undefined;
  description: string | null | undefined;
  company_name: string | null | undefined;
  phone: string | null | undefined;
  email: string | null | undefined;
};

/** The lowercased text searched by the prospects search box, one field per line. */
export function prospectSearchText(p: ProspectSearchFields): string {
  return [p.name, p.area, p.keyword, p.tag, p.description, p.company_name, p.phone, p.email]
    .map((value) => (value ?? "").toLowerCase())
    .join("\n");
}
