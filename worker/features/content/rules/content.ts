// The content suite's shared rules (issue 20): the tools, the business and audit facts a prompt is built from, the
// model-answer reader every generator uses, and the shape of one kept result ('Recent' under each tool).
import { LIMITS } from "../../audits/rules/checks";
import type { AuditView } from "../../audits/rules/view";
import { z } from "zod";
import { NETWORKS } from "./length";

export const CONTENT_TOOLS = ["gmb-post", "social-posts", "video-script", "social-plan"] as const;
export type ContentTool = (typeof CONTENT_TOOLS)[number];
export const ContentToolParam = z.object({ tool: z.enum(CONTENT_TOOLS) });

/** The name each tool logs its usage under (and shows as its title), and its page. */
export const CONTENT_TOOL_INFO: Record<ContentTool, { name: string; path: string }> = {
  "gmb-post": { name: "GMB Post Generator", path: "/tools/gmb-post-generator" },
  "social-posts": { name: "Social Post Generator", path: "/tools/social-post-generator" },
  "video-script": { name: "Video Script Generator", path: "/tools/video-script-generator" },
  "social-plan": { name: "Social Plan", path: "/tools/social-plan" },
};

/** The GMB Post Scheduler opens a generated GMB post from here (issue 20: the generator's "Schedule" link). */
export function schedulerLink(contentId: string): string {
  return `/tools/gmb-post-scheduler?content=${encodeURIComponent(contentId)}`;
}

export const CONTENT_TONES = ["professional", "friendly", "enthusiastic", "informative", "urgent"] as const;
export type ContentTone = (typeof CONTENT_TONES)[number];
export const CONTENT_TONE_LABELS: Record<ContentTone, string> = {
  professional: "Professional",
  friendly: "Friendly",
  enthusiastic: "Enthusiastic",
  informative: "Informative",
  urgent: "Urgent",
};

/** The business a piece is written for (the profile's fields). */
export type ContentBusiness = {
  company_name: string | null;
  company_category: string | null;
  company_location: string | null;
  company_description: string | null;
};

/** The profile's fields a prompt uses (worker/db's profile row), as the business the content is written for. */
export function businessFromProfile(profile: { companyName: string | null; companyCategory: string | null; companyLocation: string | null; companyDescription: string | null }): ContentBusiness {
  return {
    company_name: profile.companyName,
    company_category: profile.companyCategory,
    company_location: profile.companyLocation,
    company_description: profile.companyDescription,
  };
}

/** The networks a request names: at least one, in the product's order, with the usual three by default. */
export const networksField = z
  .array(z.enum(NETWORKS))
  .min(1, { message: "Pick at least one network" })
  .max(NETWORKS.length)
  .transform((list) => NETWORKS.filter((n) => list.includes(n)))
  .default(["facebook", "instagram", "google-business"]);

/** What the business's latest audit found, when there is one (issue 18): prompts lean on it. */
export type AuditFindings = {
  /** Keywords where the business ranks poorly. */
  weakKeywords: string[];
  /** Gaps the audit found, in plain words. */
  gaps: string[];
};

/**
 * What a content prompt takes from an audit: the searched keyword when the business is outside the map pack or off
 * the first page of results (a failed or skipped rank step says nothing), and the evidence of the failed and warned
 * checks in "what to fix first" order. Null when the audit found nothing to act on.
 */
export function contentFindings(view: Pick<AuditView, "rank" | "fixFirst">): AuditFindings | null {
  const rank = view.rank;
  const weak =
    rank?.status === "ok" &&
    (rank.mapPosition === null || rank.mapPosition > LIMITS.mapPack || rank.organicPosition === null || rank.organicPosition > LIMITS.organicFirstPage);
  const weakKeywords = weak && rank.keyword.trim() ? [rank.keyword.trim()] : [];
  const gaps = view.fixFirst.map((f) => f.check.evidence);
  return weakKeywords.length || gaps.length ? { weakKeywords, gaps } : null;
}

/** The plain facts templates and prompts use, with neutral words where the profile is empty. */
export type BusinessFacts = { name: string; trade: string; area: string; about: string };
export function businessFacts(business: ContentBusiness): BusinessFacts {
  return {
    name: business.company_name?.trim() || "Our team",
    trade: business.company_category && business.company_category !== "Other" ? business.company_category : "Home services",
    area: business.company_location?.split(",")[0]?.trim() || "your area",
    about: business.company_description?.trim().slice(0, 300) ?? "",
  };
}

/** The prompt's opening lines: who writes, for which business, and what the audit found. */
export function businessPromptLines(business: ContentBusiness, findings: AuditFindings | null): string[] {
  const lines = [
    "You are a marketing copywriter for local home-service businesses.",
    "",
    `Business category: ${business.company_category || "Local business"}`,
    `Business name: ${business.company_name || "Our business"}`,
    `Location: ${business.company_location || "the local area"}`,
    `Business description: ${business.company_description || "Not provided"}`,
  ];
  if (findings?.weakKeywords.length) lines.push(`Keywords to work in (the business ranks poorly for them): ${findings.weakKeywords.slice(0, 8).join(", ")}`);
  if (findings?.gaps.length) lines.push(`Gaps found by the business's audit: ${findings.gaps.slice(0, 5).join("; ")}`);
  lines.push("");
  return lines;
}

export const JSON_RULES = "Answer with one JSON object only. Write ready-to-publish text with no unfilled placeholders such as [phone] or {name}.";

export const INVALID_ANSWER_MESSAGE = "Invalid response format from API";
export const EMPTY_ANSWER_MESSAGE = "Empty response from API";

export type ParsedAnswer<T> = { ok: true; value: T } | { ok: false; message: string };

/** Reads a model's JSON answer (a ```json fence allowed) against the tool's schema. */
export function parseModelJson<T>(content: string, schema: z.ZodType<T>): ParsedAnswer<T> {
  if (!content.trim()) return { ok: false, message: EMPTY_ANSWER_MESSAGE };
  let json: unknown;
  try {
    json = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    return { ok: false, message: INVALID_ANSWER_MESSAGE };
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return { ok: false, message: INVALID_ANSWER_MESSAGE };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: INVALID_ANSWER_MESSAGE };
}

/**
 * A text field the model may leave out or get wrong: trimmed, or undefined (the tool fills its default). Text past
 * a limit is kept here (up to a sanity bound): the tool's length rules shorten it and say so.
 */
export const modelText = (max = 5000) => z.string().trim().min(1).max(Math.max(max * 4, 20_000)).optional().catch(undefined);
export const modelList = (max = 40) =>
  z
    .array(z.unknown())
    .transform((items) => items.filter((t): t is string => typeof t === "string" && t.trim() !== "").map((t) => t.trim()).slice(0, max))
    .optional()
    .catch(undefined);

/** One kept result of a content tool, as the API answers it. `result` is the tool's own shape. */
export type ContentItem<R = unknown> = {
  id: string;
  tool: ContentTool;
  title: string;
  input: unknown;
  result: R;
  source: "ai" | "template";
  /** Why a template wrote it, when it did. */
  notice: string | null;
  /** Length rules applied after generation ("Shortened … to fit X's 280-character limit"). */
  notes: string[];
  created_at: string;
  updated_at: string;
};

export const TEMPLATE_NOTICE = "Written from a template because AI writing is unavailable right now.";
export const UNUSABLE_NOTICE = "Written from a template because the AI's answer could not be used.";
export const TIMEOUT_NOTICE = "Written from a template because the AI took too long to answer.";

export const TOPIC_MAX = 1000;
export const topicField = z
  .string()
  .trim()
  .max(TOPIC_MAX, { message: `Must be at most ${TOPIC_MAX} characters` })
  .default("");

/** ISO date (yyyy-mm-dd) `days` after `from`, in UTC. */
export function addDays(from: string, days: number): string {
  const d = new Date(`${from}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
export function isoDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A generator's pure rules: what it takes, the prompt, how the model's answer becomes its result (the spec's
 * defaults filled), the template that serves without AI, the length rules applied after generation, and the
 * title 'Recent' shows. The engine (worker/features/content/engine.ts) runs every tool through these.
 */
export type ContentRules<Input, Result> = {
  tool: ContentTool;
  request: z.ZodType<Input, unknown>;
  /** A kept result, as an edit must send it back. */
  result: z.ZodType<Result, unknown>;
  maxTokens: number;
  temperature: number;
  prompt(business: ContentBusiness, input: Input, findings: AuditFindings | null, now: Date): string;
  fromAnswer(content: string, business: ContentBusiness, input: Input, now: Date): ParsedAnswer<Result>;
  template(business: ContentBusiness, input: Input, now: Date): Result;
  enforce(result: Result, input: Input): { result: Result; notes: string[] };
  title(result: Result, input: Input): string;
};
