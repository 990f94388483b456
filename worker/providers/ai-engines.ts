// AI Visibility's engine clients (issue 29). PLACEHOLDER for the scan pipeline's branch: h-aiv-eng's version (the real
// clients and their fakes) replaces this file at merge. Same names and signatures; asks nothing.
import { AI_ENGINES, type AiEngine, type AskInput, type EngineOutcome } from "../domain/ai-visibility-contract";
import type { Env } from "../env";

/** The engines this deployment can ask. */
export function configuredEngines(env: Env): AiEngine[] {
  const vars = env as unknown as Record<string, string | undefined>;
  const has: Record<AiEngine, boolean> = {
    chatgpt: Boolean(vars.OPENAI_API_KEY),
    google_ai_overview: Boolean(vars.SERPAPI_KEY),
    google_ai_mode: Boolean(vars.SERPAPI_KEY),
    perplexity: Boolean(vars.PERPLEXITY_API_KEY),
    gemini: Boolean(vars.GEMINI_API_KEY),
  };
  return AI_ENGINES.filter((e) => has[e]);
}

/** Asks one engine one question; never throws. */
export async function askEngine(env: Env, engine: AiEngine, input: AskInput): Promise<EngineOutcome> {
  void env;
  void input;
  return { ok: false, kind: "not_configured", error: `${engine} is not available yet` };
}
