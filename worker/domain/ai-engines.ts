// The AI engines AI Visibility asks (worker/features/ai-visibility), the most one call to each costs, which the meter
// reserves and settles (worker/domain/metering.ts), and what asking one takes and answers (the engine clients in
// worker/platform/providers/ai-engines.ts).

/** The engines a question is asked on. Each is optional by configuration (see configuredEngines). */
export const AI_ENGINES = ["chatgpt", "google_ai_overview", "google_ai_mode", "perplexity", "gemini"] as const;
export type AiEngine = (typeof AI_ENGINES)[number];

/**
 * The most one call to an engine can cost us, in dollars (the meter reserves this and settles the same flat figure):
 * SerpAPI's Developer plan per search (an AI Overview may need a second, page-token call, so two); OpenAI's web search
 * tool call plus a small model's tokens; Perplexity Sonar's request fee plus tokens; Gemini's grounded prompt plus tokens.
 */
export const AI_ENGINE_USD_PER_CALL: Record<AiEngine, number> = {
  chatgpt: 0.03,
  google_ai_overview: 0.03,
  google_ai_mode: 0.015,
  perplexity: 0.01,
  gemini: 0.04,
};

/** Where the question is asked from: the business's city (engines that take a location use it). */
export interface AskLocation {
  city: string;
  /** State or region, e.g. "Texas" or "TX". */
  region: string;
  /** ISO 3166-1 alpha-2, e.g. "US". */
  country: string;
  postalCode?: string;
  /** IANA time zone, e.g. "America/Chicago" (OpenAI's approximate location takes one). */
  timezone?: string;
}

export interface AskInput {
  question: string;
  location: AskLocation;
}

/** One source an answer cites. */
export interface CitedSource {
  url: string;
  title?: string;
}

/** One answer, whole: stored in R2 (the text) with its figures in D1. */
export interface EngineAnswer {
  text: string;
  sources: CitedSource[];
  /** The model that answered, where the engine says. */
  model?: string;
}

export type EngineErrorKind = "timeout" | "http" | "rate_limited" | "connection" | "empty" | "not_configured";

/** A call's outcome: a failed call is failed (shown as such), never "not mentioned". Never a throw. */
export type EngineOutcome = { ok: true; answer: EngineAnswer } | { ok: false; kind: EngineErrorKind; error: string };
