// Parses the tab-separated prospect paste box into prospects, row errors and skipped rows.
import { z } from "zod";
import type { Category } from "../../../domain/categories";
import { INVALID_WEBSITE_MESSAGE, NEW_REPORT_FIELDS, WebsiteInput } from "../../reports/rules/new-report";
import { NO_CONTROL_CHARACTERS, noControlCharacters } from "../../../domain/form-rules";
import { deriveKeyword, deriveTag, normalizePhone, qualifyingQuestions } from "./prospect";

// The spec shows the expected format with literal "\t" sequences, so the message does too.
export const INVALID_ROW_FORMAT =
  "Invalid row format. Expected format: Description\\tName\\tLocation\\tPhone\\tEmail\\tFull Name";
export const EMPTY_SUBMIT = "Please enter prospect data";
export const NO_VALID_DATA = "No valid data found";
export const NOT_SIGNED_IN = "You must be logged in to create a prospect";

export const ProspectImportRequest = z.object({
  text: z.string().max(2_000_000).refine(noControlCharacters, { message: NO_CONTROL_CHARACTERS }),
  allowDuplicates: z.boolean().optional().default(false),
  /** Row number of the text's first non-empty line in the whole paste (the client sends chunks). */
  startRow: z.number().int().min(1).max(10_000_000).optional(),
});
export type ProspectImportRequest = z.infer<typeof ProspectImportRequest>;

/** An imported field may be as long as the same field of the Create New Report form (email: an address's limit). */
export const IMPORT_FIELD_LIMITS = {
  description: { label: "Description", max: NEW_REPORT_FIELDS.description.maxLength! },
  name: { label: "Name", max: NEW_REPORT_FIELDS.name.maxLength! },
  area: { label: "Location", max: NEW_REPORT_FIELDS.area.maxLength! },
  phone: { label: "Phone", max: NEW_REPORT_FIELDS.phone.maxLength! },
  email: { label: "Email", max: 254 },
} as const;

export function fieldTooLong(label: string, max: number): string {
  return `${label} is too long (at most ${max} characters)`;
}

/** The first field of the row longer than its limit, as the row's message; null when all fit. */
function tooLongField(fields: Record<keyof typeof IMPORT_FIELD_LIMITS, string>): string | null {
  for (const [key, { label, max }] of Object.entries(IMPORT_FIELD_LIMITS)) {
    if (fields[key as keyof typeof IMPORT_FIELD_LIMITS].length > max) return fieldTooLong(label, max);
  }
  return null;
}

export type ParsedProspect = {
  row: number;
  name: string;
  description: string;
  area: string;
  phone: string;
  email: string;
  keyword: string;
  tag: Category;
  company_name: string;
  questions: string[];
  /** The optional 7th column (issue 18), normalised like the form's website field; null when empty. */
  website: string | null;
};

/** A row whose 7th column is not a web address: that row's error (the rest of the paste is kept). */
export const INVALID_WEBSITE_ROW = `Website: ${INVALID_WEBSITE_MESSAGE}`;

export type RowError = { row: number; message: string };

/** A row whose 5th column is not an email address: that row's error (the rest of the paste is kept). */
export const INVALID_EMAIL_ROW = "Email: Enter a valid email address";

/** Said when the paste's first row was the spreadsheet's column titles. */
export const HEADER_SKIPPED = "Row 1 looks like column titles, so it was skipped.";

export type ParseResult =
  | { ok: false; error: string }
  | { ok: true; total: number; rows: ParsedProspect[]; errors: RowError[]; skipped: number[]; header: boolean };

// Column titles a spreadsheet's header row carries, letters only and lowercased.
const HEADER_WORDS = new Set([
  "description", "business", "businessdescription", "name", "businessname", "company", "companyname", "location", "area",
  "city", "address", "phone", "phonenumber", "telephone", "email", "emailaddress", "fullname", "contact", "contactname",
  "website", "url", "site", "web",
]);

/** A first row whose cells are column titles ("Description", "Name", "Location", …): two or more of them. */
export function isHeaderRow(fields: readonly string[]): boolean {
  const titles = fields.map((f) => clean(f).toLowerCase().replace(/[^a-z]/g, "")).filter((f) => HEADER_WORDS.has(f));
  return titles.length >= 2;
}

// Text copied from spreadsheets and web pages can carry zero-width characters that trim() keeps.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

function clean(value: string | undefined): string {
  return (value ?? "").replace(INVISIBLE, "").trim();
}

/** The paste's non-empty lines, in order: row N of every message is the N-th of these. */
export function nonEmptyLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => clean(line) !== "");
}

export function parseProspectPaste(text: string): ParseResult {
  if (text.trim() === "") return { ok: false, error: EMPTY_SUBMIT };

  const lines = nonEmptyLines(text);
  if (lines.length === 0) return { ok: false, error: NO_VALID_DATA };

  const rows: ParsedProspect[] = [];
  const errors: RowError[] = [];
  const skipped: number[] = [];

  const header = isHeaderRow(lines[0]!.split("\t"));
  if (header && lines.length === 1) return { ok: false, error: NO_VALID_DATA };

  lines.forEach((line, index) => {
    const row = index + 1;
    if (row === 1 && header) return;
    const fields = line.split("\t");
    if (fields.length < 3) {
      errors.push({ row, message: INVALID_ROW_FORMAT });
      return;
    }
    // The sixth field (full name) is ignored; the optional seventh is the website.
    const [rawDescription, rawName, rawArea, rawPhone, rawEmail, , rawWebsite] = fields;
    const description = clean(rawDescription);
    const name = clean(rawName);
    const area = clean(rawArea);
    if (name === "" || area === "") {
      skipped.push(row);
      return;
    }
    const phone = clean(rawPhone);
    const email = clean(rawEmail);
    const tooLong = tooLongField({ description, name, area, phone, email });
    if (tooLong) {
      errors.push({ row, message: tooLong });
      return;
    }
    if (email !== "" && !z.email().safeParse(email).success) {
      errors.push({ row, message: INVALID_EMAIL_ROW });
      return;
    }
    const website = WebsiteInput.safeParse(clean(rawWebsite));
    if (!website.success) {
      errors.push({ row, message: INVALID_WEBSITE_ROW });
      return;
    }
    rows.push({
      row,
      website: website.data,
      name,
      description,
      area,
      phone: normalizePhone(phone),
      email,
      keyword: deriveKeyword(description, area),
      tag: deriveTag(description),
      company_name: name,
      questions: qualifyingQuestions(description, area),
    });
  });

  return { ok: true, total: lines.length, rows, errors, skipped, header };
}

export function formatPartialSuccess(created: number, failed: number): string {
  return `Created ${created} prospects successfully. ${failed} failed.`;
}

export function formatSuccess(created: number): string {
  return `Created ${created} prospects successfully!`;
}

export function formatRowError(row: number, message: string): string {
  return `Row ${row}: ${message}`;
}

export function prospectCountTitle(count: number): string {
  return count === 1 ? `${count} prospect created` : `${count} prospects created`;
}

export type DuplicateCandidate = {
  name: string;
  phone?: string | null;
  area?: string | null;
};

/** The form of a name used to find possible duplicates. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

function samePhone(a: string | null | undefined, b: string | null | undefined): boolean {
  const digitsA = (a ?? "").replace(/\D/g, "");
  const digitsB = (b ?? "").replace(/\D/g, "");
  if (digitsA === "" || digitsB === "") return false;
  // Stored phones are already normalised, and normalising twice can add a second prefix.
  return digitsA === digitsB || normalizePhone(a ?? "") === normalizePhone(b ?? "");
}

function sameArea(a: string | null | undefined, b: string | null | undefined): boolean {
  const areaA = (a ?? "").trim().toLowerCase();
  const areaB = (b ?? "").trim().toLowerCase();
  return areaA !== "" && areaA === areaB;
}

/** Same name, and either the same phone or the same area. */
export function isSameProspect(a: DuplicateCandidate, b: DuplicateCandidate): boolean {
  if (nameKey(a.name) === "" || nameKey(a.name) !== nameKey(b.name)) return false;
  return samePhone(a.phone, b.phone) || sameArea(a.area, b.area);
}

/**
 * Splits parsed rows into those to create and those that duplicate a known prospect or an earlier
 * row of the same paste. `existing` are prospects already stored (looked up by name).
 */
export function partitionDuplicates<R extends DuplicateCandidate, E extends DuplicateCandidate & { id: string }>(
  rows: R[],
  existing: E[],
  newId: () => string,
): { accepted: Array<{ row: R; id: string }>; duplicates: Array<{ row: R; existingId: string }> } {
  const known = new Map<string, Array<DuplicateCandidate & { id: string }>>();
  const remember = (p: DuplicateCandidate & { id: string }) => {
    const key = nameKey(p.name);
    known.set(key, [...(known.get(key) ?? []), p]);
  };
  for (const p of existing) remember(p);
  const accepted: Array<{ row: R; id: string }> = [];
  const duplicates: Array<{ row: R; existingId: string }> = [];
  for (const row of rows) {
    const match = (known.get(nameKey(row.name)) ?? []).find((p) => isSameProspect(row, p));
    if (match) {
      duplicates.push({ row, existingId: match.id });
      continue;
    }
    const id = newId();
    remember({ id, name: row.name, phone: row.phone, area: row.area });
    accepted.push({ row, id });
  }
  return { accepted, duplicates };
}
