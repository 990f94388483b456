// The audit's score: seven equally weighted sections (as GoHighLevel weighs them), each from its known checks,
// the overall 0–100 shown as the SEO potential, and the "what to fix first" list ordered by the points a fix adds.
import type { Check, SectionId, Verdict } from "./checks";

export const SECTIONS: ReadonlyArray<{ id: SectionId; label: string }> = [
  { id: "business_details", label: "Business details" },
  { id: "google_business_profile", label: "Google Business Profile" },
  { id: "reputation", label: "Reputation" },
  { id: "website_performance", label: "Website performance" },
  { id: "on_page_seo", label: "On-page SEO" },
  { id: "local_rank", label: "Local rank" },
  { id: "competitors", label: "Competitors" },
];

const VALUE: Record<Exclude<Verdict, "unknown">, number> = { pass: 1, warn: 0.5, fail: 0 };

export type SectionScore = {
  id: SectionId;
  label: string;
  /** 0–100, or null when none of its checks could be made ("no data"). */
  score: number | null;
  known: number;
  total: number;
};

export type AuditScore = {
  /** 0–100 over the sections with data, or null when no section had any. */
  overall: number | null;
  sections: SectionScore[];
  /** The sections the report must say had no data. */
  noData: SectionId[];
};

/** Scores the checks: unknown checks are left out, a section with no known check is "no data" and left out of the overall. */
export function scoreAudit(checks: readonly Check[]): AuditScore {
  const exact = SECTIONS.map(({ id }) => sectionValue(checks, id));
  const sections = SECTIONS.map(({ id, label }, i): SectionScore => {
    const mine = checks.filter((c) => c.section === id);
    const value = exact[i]!;
    return { id, label, score: value === null ? null : Math.round(value), known: mine.filter((c) => c.verdict !== "unknown").length, total: mine.length };
  });
  const scored = exact.filter((v): v is number => v !== null);
  const overall = scored.length === 0 ? null : Math.round(scored.reduce((a, b) => a + b, 0) / scored.length);
  return { overall, sections, noData: sections.filter((s) => s.score === null).map((s) => s.id) };
}

/** A section's 0–100 value from its known checks, unrounded; null when it has none. */
function sectionValue(checks: readonly Check[], section: SectionId): number | null {
  const known = checks.filter((c) => c.section === section && c.verdict !== "unknown");
  if (known.length === 0) return null;
  return (100 * known.reduce((sum, c) => sum + VALUE[c.verdict as keyof typeof VALUE], 0)) / known.length;
}

export type Fix = { check: Check; /** overall points fixing it would add */ points: number };

/**
 * The failed and warned checks ordered by impact: the points of the overall score a fix would add (a check weighs more
 * in a section with fewer known checks); ties go to fails before warns, then the sections' order.
 */
export function fixFirst(checks: readonly Check[], limit = 5): Fix[] {
  const knownBySection = new Map<SectionId, number>();
  for (const c of checks) if (c.verdict !== "unknown") knownBySection.set(c.section, (knownBySection.get(c.section) ?? 0) + 1);
  const sectionsWithData = knownBySection.size;
  if (sectionsWithData === 0) return [];
  const order = (id: SectionId) => SECTIONS.findIndex((s) => s.id === id);
  return checks
    .filter((c) => c.verdict === "fail" || c.verdict === "warn")
    .map((check) => ({
      check,
      points: Math.round((10 * (100 * (1 - VALUE[check.verdict as "fail" | "warn"]))) / knownBySection.get(check.section)! / sectionsWithData) / 10,
    }))
    .sort((a, b) => b.points - a.points || severity(a.check) - severity(b.check) || order(a.check.section) - order(b.check.section))
    .slice(0, limit);
}

const severity = (c: Check) => (c.verdict === "fail" ? 0 : 1);
