// What a report (and the prospect chat) take from the prospect's audit (issue 18): the site's current title and
// description (the meta tags improve on them), the competitors (the ad answers them), the gaps (the GBP post ideas
// target them), the sections with no data, and the score. Pure: the AI prompt, the template and the chats read it.
import type { Check, Competitor } from "../../audits/rules/checks";
import { SECTIONS } from "../../audits/rules/score";
import type { AuditView } from "../../audits/rules/view";

export type ReportFindings = {
  /** 0–100 over the sections with data: the report's SEO potential; null when no section had data. */
  overall: number | null;
  siteUrl: string | null;
  currentTitle: string | null;
  currentDescription: string | null;
  /** True when the audit found no website at all (a finding, not an error). */
  noWebsite: boolean;
  rating: number | null;
  reviewCount: number | null;
  mapPosition: number | null;
  organicPosition: number | null;
  keyword: string | null;
  competitors: Competitor[];
  /** The "fix first" checks, most points first. */
  gaps: Check[];
  /** Every check that was made (pass, warn or fail), for the chat. */
  seen: Check[];
  /** Labels of the sections the audit had no data for. */
  noData: string[];
};

export function findingsFromAudit(view: AuditView): ReportFindings {
  const website = view.checks.find((c) => c.id === "website_present");
  const rank = view.rank?.status === "ok" ? view.rank : null;
  return {
    overall: view.score.overall,
    siteUrl: view.site?.finalUrl ?? view.subject.website ?? view.listing?.website ?? null,
    currentTitle: view.site?.title ?? null,
    currentDescription: view.site?.metaDescription ?? null,
    noWebsite: website?.verdict === "fail",
    rating: view.listing?.rating ?? null,
    reviewCount: view.listing?.reviewCount ?? null,
    mapPosition: rank?.mapPosition ?? null,
    organicPosition: rank?.organicPosition ?? null,
    keyword: rank?.keyword ?? view.subject.keyword,
    competitors: view.competitors.slice(0, 3),
    gaps: view.fixFirst.map((f) => f.check),
    seen: view.checks.filter((c) => c.verdict !== "unknown"),
    noData: view.score.noData.map((id) => SECTIONS.find((s) => s.id === id)?.label ?? id),
  };
}

const competitorLine = (c: Competitor) =>
  `${c.name}${c.rating != null ? ` (${c.rating.toFixed(1)} stars${c.reviewCount != null ? `, ${c.reviewCount} reviews` : ""})` : ""}`;

/** The prompt's block: facts only, each with what the content must do with it. */
export function findingsPromptLines(f: ReportFindings): string[] {
  const lines = ["", "What an audit of this business found (facts seen on its website and Google; use only these, never invent others):"];
  if (f.noWebsite) lines.push("- The business has no website we could find: say what that costs them (searchers find only competitors) and make the ad and meta tags fit a new site.");
  else if (f.siteUrl) lines.push(`- Website: ${f.siteUrl}`);
  if (f.currentTitle !== null) lines.push(`- The site's current page title: "${f.currentTitle}" (${[...f.currentTitle].length} characters). The metaSEO title must improve on it.`);
  if (f.currentDescription !== null) lines.push(`- The site's current meta description: "${f.currentDescription}" (${[...f.currentDescription].length} characters). The metaSEO description must improve on it.`);
  else if (f.siteUrl && !f.noWebsite) lines.push("- The site has no meta description: the metaSEO description fills that gap.");
  if (f.rating !== null) lines.push(`- Google rating: ${f.rating.toFixed(1)} stars from ${f.reviewCount ?? 0} reviews.`);
  if (f.mapPosition !== null) lines.push(`- Google Maps position for "${f.keyword}": ${f.mapPosition}.`);
  if (f.organicPosition !== null) lines.push(`- Google organic position for "${f.keyword}": ${f.organicPosition}.`);
  if (f.competitors.length > 0) lines.push(`- Top competitors in the map pack: ${f.competitors.map(competitorLine).join("; ")}. The perfectAd must answer them (why choose this business over them).`);
  if (f.gaps.length > 0) {
    lines.push("- Gaps found, most important first (the gmbArticles must target these where a Google Business Profile post can help):");
    for (const g of f.gaps) lines.push(`  - ${g.evidence}`);
  }
  if (f.noData.length > 0) lines.push(`- No data for: ${f.noData.join(", ")} (do not claim anything about these).`);
  return lines;
}

/** The chats' system-prompt block: the score and the top findings, and the rule never to invent one. */
export function findingsChatBlock(view: AuditView | null): string {
  if (!view) return "No audit of this business has been made yet: if asked what was found, say an audit has not been run; never invent findings.";
  const f = findingsFromAudit(view);
  const lines = [
    `An audit of this business on ${view.createdAt.slice(0, 10)} found the following (the only findings you may state; never invent a finding the audit does not have, and say when something was not checked):`,
    `- SEO potential score: ${f.overall === null ? "not enough data" : `${f.overall} out of 100`}.`,
    ...view.score.sections.map((s) => `- ${s.label}: ${s.score === null ? "no data" : `${s.score}/100`}`),
  ];
  if (f.gaps.length > 0) lines.push("- What to fix first:", ...f.gaps.map((g) => `  - ${g.evidence}`));
  const passes = f.seen.filter((c) => c.verdict === "pass").slice(0, 8);
  if (passes.length > 0) lines.push("- What is already good:", ...passes.map((c) => `  - ${c.evidence}`));
  if (f.competitors.length > 0) lines.push(`- Top competitors on Google Maps: ${f.competitors.map(competitorLine).join("; ")}.`);
  if (f.noData.length > 0) lines.push(`- Not checked (no data): ${f.noData.join(", ")}.`);
  return lines.join("\n");
}
