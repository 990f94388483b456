// AI Visibility (issue 29): the fixed shapes shared by the engine clients (worker/platform/providers), the scan pipeline
// (worker/features/ai-visibility), the routes and the page (web/features/ai-visibility/pages/ai-visibility.tsx). Pure types and constants; the rules
// (mention matching, Wilson interval, figures) live in worker/features/ai-visibility/rules/ai-visibility.ts.

import type { AiEngine, CitedSource } from "../../../domain/ai-engines";

export {
  AI_ENGINES,
  AI_ENGINE_USD_PER_CALL,
  type AiEngine,
  type AskInput,
  type AskLocation,
  type CitedSource,
  type EngineAnswer,
  type EngineErrorKind,
  type EngineOutcome,
} from "../../../domain/ai-engines";

/** What the page calls each engine. ChatGPT is reached through the API, which may answer differently from the app. */
export const AI_ENGINE_LABELS: Record<AiEngine, string> = {
  chatgpt: "OpenAI API with web search",
  google_ai_overview: "Google AI Overviews",
  google_ai_mode: "Google AI Mode",
  perplexity: "Perplexity",
  gemini: "Gemini",
};

/** Samples per question and engine: every figure stands on several answers, since AI answers vary run to run. */
/** How often the scan page asks for a running scan (and the bench, as a viewer would). */
export const AIV_POLL_MS = 2000;
export const AI_DEFAULT_SAMPLES = 5;
export const AI_MIN_SAMPLES = 3;
export const AI_MAX_SAMPLES = 10;

// ---- The API's answers (GET /api/ai-visibility/...) -------------------------------------------------------------

export type ScanStatus = "queued" | "running" | "done" | "failed";

/** A proportion with its 95% Wilson interval (0..1). */
export interface RateFigure {
  /** k of n answers. */
  k: number;
  n: number;
  mention_rate: number;
  low: number;
  high: number;
}

export interface NamedBusiness {
  name: string;
  /** Answers (of n) that name it. */
  mentions: number;
  /** Whether it is in the local competitor set (Google Maps for the category in the city, plus the audit's competitors). */
  local: boolean;
  /** The business itself. */
  self: boolean;
}

/** The figures for one question on one engine. */
export interface QuestionEngineFigure extends Omit<RateFigure, "mention_rate"> {
  /** k ÷ n; null when n is 0 (every answer failed): no answers means no rate, never "named in 0%". */
  mention_rate: number | null;
  questionId: string;
  question: string;
  engine: AiEngine;
  /** Answers that failed (not counted in n). */
  failed: number;
  /** Mean position of the business's first mention among the businesses named (1 = first), null when never named. */
  avg_position: number | null;
  /** The business's mentions ÷ all mentions of local businesses (0..1), null when no local business was named. */
  share_of_voice: number | null;
  /** Answers citing the business's own website or Google profile. */
  own_site_cited: number;
  /** The stored answers this figure stands on. */
  answerIds: string[];
  named: NamedBusiness[];
}

export interface CitedDomain {
  domain: string;
  /** Answers citing it, and of how many answers. */
  answers: number;
  of: number;
  engines: AiEngine[];
  /** Citation Tracker: true when the business was not found there, false when found, null when not checked. */
  missing: boolean | null;
}

export interface ScanView {
  id: string;
  business: "own" | string;
  businessName: string;
  status: ScanStatus;
  createdAt: string;
  finishedAt: string | null;
  samples: number;
  engines: AiEngine[];
  questions: { id: string; text: string }[];
  /** Calls done / planned, for the progress bar. */
  progress: { done: number; total: number; failed: number };
  costCents: number;
  /** Weighted equally over each question and engine. */
  overall: (RateFigure & { share_of_voice: number | null; share_low: number | null; share_high: number | null }) | null;
  figures: QuestionEngineFigure[];
  citedDomains: CitedDomain[];
  /** What to do, grounded in the figures; `source` says whether AI wrote it or templates did. */
  actions: { items: string[]; source: "ai" | "template" } | null;
  /** Engines that failed outright, with what the customer can do. */
  engineErrors: { engine: AiEngine; message: string }[];
}

export interface AnswerView {
  id: string;
  scanId: string;
  engine: AiEngine;
  question: string;
  sample: number;
  askedAt: string;
  model: string | null;
  status: "ok" | "failed";
  text: string | null;
  sources: CitedSource[];
  /** Business names found in the text, in order, with whether each is the business itself / local. */
  named: { name: string; self: boolean; local: boolean }[];
  error: string | null;
}

export interface TrackedQuestion {
  id: string;
  text: string;
  tracked: boolean;
  createdAt: string;
  /** The last weekly figures per engine (for the history chart: GET scans?business= gives the series). */
}

export interface EstimateView {
  calls: number;
  costCents: number;
  perEngine: { engine: AiEngine; calls: number; costCents: number }[];
  /** Whether the allowance covers it; false means POST answers 402 before any call. */
  allowed: boolean;
}

// ---- Added by the page (h-aiv-ui): shapes the screens read beyond the above -------------------------------------

/** Whether an engine can be used for this business now; `reason` says why not ("plan": not on the plan yet). */
export interface EngineAvailability {
  engine: AiEngine;
  available: boolean;
  reason: "plan" | "unavailable" | null;
}

/**
 * GET /api/ai-visibility/questions?business=: the saved questions, or (none saved yet) suggestions from the business's
 * category and city; the plan's limit on questions; every engine with whether it can be used.
 */
export interface QuestionsView {
  questions: TrackedQuestion[];
  suggested: string[];
  limit: number;
  engines: EngineAvailability[];
}

/** One engine's figure over a scan's questions (each question weighted equally): the history chart's band. */
export type EngineRate = RateFigure & { engine: AiEngine };

/** One row of GET /api/ai-visibility/scans?business= (newest first). */
export interface AiScanSummary {
  id: string;
  status: ScanView["status"];
  trigger: "manual" | "weekly";
  createdAt: string;
  finishedAt: string | null;
  samples: number;
  engines: AiEngine[];
  questions: number;
  progress: ScanView["progress"];
  overall: ScanView["overall"];
  perEngine: EngineRate[];
}

/** One scan in GET /api/ai-visibility/scans?business= (newest first): the pipeline's own row type, one shape for both. */
export type ScanHistoryRow = AiScanSummary;

// ---- Shared with the public report's script (no zod here: the shared page's bundle stays small) ----------------

/** GET /api/shared/reports/:id/ai-answers/:answerId: an answer behind a figure of the shared report. */
export function sharedAiAnswerPath(reportId: string, answerId: string): string {
  return `/api/shared/reports/${encodeURIComponent(reportId)}/ai-answers/${encodeURIComponent(answerId)}`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text cut at each name (odd parts are names; `self` says which are the business itself): marked by the page, never as HTML. */
export function markNames(text: string, names: readonly string[], self: readonly string[] = []): { text: string; name: boolean; self: boolean }[] {
  const marked = [...new Set(names.filter((n) => n.trim().length > 1))].sort((a, b) => b.length - a.length);
  if (marked.length === 0) return [{ text, name: false, self: false }];
  const own = new Set(self.map((n) => n.toLowerCase()));
  return text
    .split(new RegExp(`(${marked.map(escapeRe).join("|")})`, "gi"))
    .map((part, i) => ({ text: part, name: i % 2 === 1, self: i % 2 === 1 && own.has(part.toLowerCase()) }))
    .filter((p) => p.text.length > 0);
}
