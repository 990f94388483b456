// The citation figures on the agency's clients view (issue 41): the latest finished own scan's score and what it found
// wrong or missing, against the finished scan before it. Refreshed when a scan finishes. Pure: the web reads the shape.
import type { CitationSourceResult, CitationSummary } from "./citations";
import { sourceById } from "./sources";

/** The biggest sources (weight 80 and up: the aggregators, Google, Bing, Apple, Yelp, Facebook, BBB, Angi). */
export const MAJOR_SOURCE_WEIGHT = 80;

export type CitationClientFigures = {
  /** 0–100 (see `summarize`); null without a finished own scan, or before anything answered. */
  score: number | null;
  /** Points gained (negative: lost) since the finished scan before it; null without one (or a score on either side). */
  scoreChange: number | null;
  /** Listings that show the business with wrong details (name, address, phone, website) or more than once. */
  wrong: number | null;
  /** Sources where the business is not listed. */
  gaps: number | null;
  /** When the latest finished own scan finished. */
  scannedAt: string | null;
  /** The biggest sources where the listing is wrong or duplicated (their names, most important first): the attention queue's item. */
  wrongMajor: string[];
};

/** The names of the biggest sources whose listing is wrong or duplicated, most important first. */
export function wrongMajorSources(results: readonly CitationSourceResult[]): string[] {
  return results
    .filter((r) => (r.verdict === "inconsistent" || r.verdict === "duplicate") && (sourceById(r.source)?.weight ?? 0) >= MAJOR_SOURCE_WEIGHT)
    .sort((a, b) => (sourceById(b.source)?.weight ?? 0) - (sourceById(a.source)?.weight ?? 0))
    .map((r) => sourceById(r.source)?.name ?? r.source);
}

export function citationClientFiguresOf(latest: { summary: CitationSummary; scannedAt: string; wrongMajor: string[] } | null, previous: CitationSummary | null): CitationClientFigures {
  if (!latest) return { score: null, scoreChange: null, wrong: null, gaps: null, scannedAt: null, wrongMajor: [] };
  const { summary } = latest;
  return {
    score: summary.score,
    scoreChange: summary.score !== null && previous?.score != null ? summary.score - previous.score : null,
    wrong: summary.inconsistent + summary.duplicates,
    gaps: summary.not_found,
    scannedAt: latest.scannedAt,
    wrongMajor: latest.wrongMajor,
  };
}
