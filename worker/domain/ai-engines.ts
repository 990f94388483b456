// The AI engines AI Visibility asks (worker/features/ai-visibility), and the most one call to each costs, which the
// meter reserves and settles (worker/domain/metering.ts).

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
