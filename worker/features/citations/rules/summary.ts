// The Citation Tracker's figures over a scan's verdicts (issue 27): the summary and score, the fix list, the change
// between two scans, the CSV, and what a prospect's report says of the listings. Pure; shared by the worker and the web.
import { toCsv } from "../../../domain/csv";
import { CITATION_SOURCES, SOURCE_KIND_LABELS, sourceById } from "./sources";
import {
  FIELD_IDS,
  FIELD_LABELS,
  type CitationSourceResult,
  type CitationSummary,
  type CitationVerdict,
  type FieldId,
  type FixItem,
} from "./citations";

const LISTED: readonly CitationVerdict[] = ["consistent", "inconsistent", "duplicate"];

export function summarize(results: readonly CitationSourceResult[]): CitationSummary {
  const looked = results.filter((r) => r.lookup !== "manual");
  const count = (v: CitationVerdict) => looked.filter((r) => r.verdict === v && (v !== "unknown" || r.state === "done")).length;
  const listed = looked.filter((r) => LISTED.includes(r.verdict)).length;
  const consistent = count("consistent");
  const notFound = count("not_found");
  const known = listed + notFound;
  const done = looked.some((r) => r.state === "done");
  return {
    checked: looked.length,
    listed,
    consistent,
    inconsistent: count("inconsistent"),
    duplicates: count("duplicate"),
    not_found: notFound,
    unknown: looked.filter((r) => r.verdict === "unknown").length,
    gaps: looked.filter((r) => r.gap).length,
    manual: results.length - looked.length,
    score: !done || known === 0 ? null : Math.round(50 * (listed / known) + 50 * (listed === 0 ? 0 : consistent / listed)),
  };
}

function weightOf(id: string): number {
  return sourceById(id)?.weight ?? 0;
}

/**
 * What to fix, most important first: wrong data on the biggest sources (a duplicate first: it splits the reviews
 * and keeps the old data alive), then the gaps competitors fill, then big sources that do not list the business; when
 * listings disagree, the aggregators that feed the others.
 */
export function fixList(results: readonly CitationSourceResult[]): FixItem[] {
  const byWeight = [...results].sort((a, b) => weightOf(b.source) - weightOf(a.source));
  const fixes: FixItem[] = [];
  for (const r of byWeight.filter((x) => x.verdict === "inconsistent" || x.verdict === "duplicate")) {
    const fields = r.fields!;
    const corrections = FIELD_IDS.filter((f) => fields[f].match === "differs" && fields[f].expected).map((f) => ({ field: f, from: fields[f].listing, to: fields[f].expected! }));
    if (r.verdict === "duplicate") {
      const stale = r.listings.find((l) => FIELD_IDS.some((f) => l.fields[f].match === "differs")) ?? r.listings[r.listings.length - 1]!;
      fixes.push({ source: r.source, name: r.name, kind: "duplicate", corrections: [], url: r.fix_url, text: `${r.name} lists the business ${r.listings.length} times: claim the listing and ask ${r.name} to remove the duplicate at ${stale.url} (it shows phone ${stale.fields.phone.listing ?? "none"}).` });
      continue;
    }
    const text = corrections.map((c) => `change the ${FIELD_LABELS[c.field].toLowerCase()} from "${c.from}" to "${c.to}"`).join("; ");
    fixes.push({ source: r.source, name: r.name, kind: "correct", corrections, url: r.fix_url, text: `On ${r.name}, ${text}.` });
  }
  const gaps = results.filter((r) => r.gap).sort((a, b) => b.competitors.length - a.competitors.length || weightOf(b.source) - weightOf(a.source));
  for (const r of gaps) {
    fixes.push({ source: r.source, name: r.name, kind: "gap", corrections: [], url: r.fix_url, text: `Add the business to ${r.name}: ${r.competitors.join(" and ")} are listed there, you are not.` });
  }
  for (const r of byWeight.filter((x) => x.verdict === "not_found" && !x.gap && weightOf(x.source) >= 70)) {
    fixes.push({ source: r.source, name: r.name, kind: "add", corrections: [], url: r.fix_url, text: `Add the business to ${r.name} (not found after ${r.searches} searches).` });
  }
  if (fixes.some((f) => f.kind === "correct" || f.kind === "duplicate")) {
    for (const s of CITATION_SOURCES.filter((x) => x.kind === "data_aggregator")) {
      fixes.push({ source: s.id, name: s.name, kind: "aggregator", corrections: [], url: s.claimUrl, text: `Check your details at ${s.name}: ${s.note ?? "it feeds other directories."}` });
    }
  }
  return fixes;
}

// ——— history ———

const FIELD_PHRASES: Record<FieldId, string> = { name: "your name", street: "your street address", city_zip: "your city and ZIP", phone: "your phone number", website: "your website" };

/** What changed between two scans of the same business, in words ("Yelp now shows your new phone number"). */
export function diffScans(before: readonly CitationSourceResult[], after: readonly CitationSourceResult[]): string[] {
  const out: string[] = [];
  for (const next of after) {
    const prev = before.find((b) => b.source === next.source);
    if (!prev || prev.state !== "done" || next.state !== "done" || prev.verdict === "unknown" || next.verdict === "unknown") continue;
    const wasListed = LISTED.includes(prev.verdict);
    const isListed = LISTED.includes(next.verdict);
    if (!wasListed && isListed) {
      out.push(`Now listed on ${next.name}.`);
      continue;
    }
    if (wasListed && !isListed) {
      out.push(`No longer found on ${next.name}.`);
      continue;
    }
    if (!wasListed) continue;
    if (prev.verdict === "duplicate" && next.verdict !== "duplicate") out.push(`A duplicate on ${next.name} is gone.`);
    if (prev.verdict !== "duplicate" && next.verdict === "duplicate") out.push(`A second listing appeared on ${next.name}.`);
    for (const f of FIELD_IDS) {
      const a = prev.fields?.[f].match;
      const b = next.fields?.[f].match;
      if (a === "differs" && b === "match") out.push(f === "phone" ? `${next.name} now shows your new phone number.` : `${next.name} now shows ${FIELD_PHRASES[f]} correctly.`);
      if (a === "match" && b === "differs") out.push(`${next.name} now shows a different ${FIELD_LABELS[f].toLowerCase()}: "${next.fields![f].listing}".`);
    }
  }
  return out;
}

// ——— CSV ———

export function citationsCsv(results: readonly CitationSourceResult[]): string {
  const header = ["Source", "Kind", "Verdict", "Listing URL", ...FIELD_IDS.flatMap((f) => [`${FIELD_LABELS[f]} (listing)`, `${FIELD_LABELS[f]} (should be)`, `${FIELD_LABELS[f]} match`]), "Evidence", "Checked", "Competitors listed", "Fix link"];
  return toCsv([
    header,
    ...results.map((r) => [
      r.name,
      SOURCE_KIND_LABELS[r.kind],
      r.lookup === "manual" ? "manual" : r.verdict,
      r.url,
      ...FIELD_IDS.flatMap((f) => [r.fields?.[f].listing ?? "", r.fields?.[f].expected ?? "", r.fields?.[f].match ?? ""]),
      r.evidence,
      r.checkedAt,
      r.competitors.join("; "),
      r.fix_url,
    ]),
  ]);
}

/** The one-line "Listings" sentence for the report, the shared page and the prompts. */
export function listingsSentence(summary: CitationSummary, results: readonly CitationSourceResult[]): string {
  const parts = [`Found on ${summary.listed} of ${summary.checked} sources`];
  const oldPhone = results.filter((r) => r.fields?.phone.match === "differs" || r.listings.some((l) => l.fields.phone.match === "differs")).length;
  if (oldPhone > 0) parts.push(`${oldPhone} show${oldPhone === 1 ? "s" : ""} an old phone number`);
  const otherWrong = summary.inconsistent + summary.duplicates - oldPhone;
  if (otherWrong > 0) parts.push(`${otherWrong} more show${otherWrong === 1 ? "s" : ""} other outdated details`);
  const gaps = results.filter((r) => r.gap).map((r) => r.name);
  if (gaps.length > 0) parts.push(`your competitors are on ${gaps.slice(0, 3).join(gaps.length === 2 ? " and " : ", ")}, you are not`);
  return `${parts.join("; ")}.`;
}

// ——— The report's "Listings" (issue 27) ———

/** One source the report names: wrong details (which fields, never their values), a duplicate, or a competitor gap. */
export type ReportListingSource = { name: string; verdict: CitationVerdict; fields: string[]; gap: boolean };

/**
 * A prospect's newest finished scan as the report, the shared page and the prompts show it. No listing's values: a
 * listing's phone number or address never reaches the shared page, only which field is out of date.
 */
export type ReportListings = { createdAt: string; sentence: string; summary: CitationSummary; sources: ReportListingSource[] };

export function reportListingsOf(createdAt: string, results: readonly CitationSourceResult[]): ReportListings {
  const summary = summarize(results);
  const sources = results
    .filter((r) => r.verdict === "inconsistent" || r.verdict === "duplicate" || r.gap)
    .map((r) => ({
      name: r.name,
      verdict: r.verdict,
      fields: FIELD_IDS.filter((f) => r.fields?.[f].match === "differs" || r.listings.some((l) => l.fields[f].match === "differs")).map((f) => FIELD_LABELS[f]),
      gap: r.gap,
    }));
  return { createdAt, sentence: listingsSentence(summary, results), summary, sources };
}

/** What a source's line in the report says (the same words on the page, in the prompt and in the chats). */
export function reportListingSourceText(s: ReportListingSource): string {
  if (s.verdict === "duplicate") return `${s.name}: listed more than once`;
  if (s.verdict === "inconsistent") return `${s.name}: out of date (${s.fields.join(", ").toLowerCase() || "details"})`;
  return `${s.name}: competitors are listed, the business is not`;
}

/** The lines the report's prompt and both chats carry: the scan's facts only. */
export function listingsPromptLines(l: ReportListings | null): string[] {
  if (!l) return [];
  return [
    `A citation scan on ${l.createdAt.slice(0, 10)} checked the business's listings on directories (the only listing facts you may state):`,
    `- ${l.sentence}`,
    ...l.sources.map((s) => `  - ${reportListingSourceText(s)}`),
  ];
}
