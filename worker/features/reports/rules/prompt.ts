// The AI prompt for a report and the settings of its call.
import { type ReportProspect, prospectCategory } from "./content";
import { listingsPromptLines, type ReportListings } from "../../citations/rules/summary";
import { findingsPromptLines, type ReportFindings } from "./findings";
import { aiVisibilityPromptLines, type ReportAiVisibility } from "../../ai-visibility/rules/scans";

export const REPORT_MAX_TOKENS = 3000;
export const REPORT_TEMPERATURE = 0.7;

/** The prompt; with the audit's findings (issue 18) and the citation scan's "Listings" (issue 27) the content must build on what was seen. */
export function buildReportPrompt(p: ReportProspect, findings: ReportFindings | null = null, listings: ReportListings | null = null, aiVisibility: ReportAiVisibility | null = null): string {
  const lines = [
    "You are an expert local SEO and marketing strategist for home-service businesses.",
    "Create SEO report content for this business:",
    `- Business name: ${p.name}`,
    `- Company: ${p.company_name?.trim() || p.name}`,
    `- Target keyword: ${p.keyword}`,
    `- Service area: ${p.area}`,
    `- Description: ${p.description || "(none given)"}`,
    `- Category: ${prospectCategory(p)}`,
    "",
    "Respond with a single JSON object and nothing else, with exactly these keys:",
    '- "metaSEO": { "title": a meta title under 60 characters that contains the target keyword, "description": a meta description under 160 characters with a call to action, "url": the page address, "improvements": a list of reasons these meta tags work }',
    '- "perfectAd": { "title": a Google search ad headline, "description": the ad description, "displayUrl": the displayed URL built from the business name, "targetUrl": the landing page address, "improvements": a list of reasons this ad copy works }',
    '- "gmbArticles": exactly 3 Google My Business article ideas, each { "title", "subtitle", "targetKeywords": exactly 3 keywords }',
    '- "blogStructures": exactly 3 blog post structures, each { "title", "sections": exactly 5 section headings, "targetKeywords": exactly 5 keywords, the first being the primary keyword }',
    '- "facebookPosts": exactly 3 educational Facebook posts, each { "title", "content": the ready-to-publish post text, "author": the business name }',
    '- "seoPotential": { "score": an integer from 1 to 100 rating how well this business can rank for the target keyword in its area, "keyword_potential": a number from 1 to 10, "business_relevance": a number from 1 to 10, "competition": "Low", "Medium" or "High" }',
    "",
    `Write for homeowners in ${p.area}. Use the target keyword naturally, mention the service area, and leave no placeholders unfilled.`,
    ...(findings ? findingsPromptLines(findings) : []),
    ...(listings ? ["", ...listingsPromptLines(listings)] : []),
    ...(aiVisibility ? ["", ...aiVisibilityPromptLines(aiVisibility)] : []),
  ];
  return lines.join("\n");
}

