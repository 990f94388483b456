// AI Visibility's engine clients (issue 29) inside workerd, through the real `openai` SDK and fetch, against the
// loopback fakes (vitest.config.ts points OPENAI_BASE_URL, PERPLEXITY_BASE_URL, GEMINI_BASE_URL at the AI engines fake
// and SERPAPI_BASE_URL at the search fake): each engine answers, and a 500, a 429 or a time-out is a failed outcome.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AI_ENGINES, type AiEngine, type AskInput } from "../../../worker/features/ai-visibility/rules/contract";
import type { Env } from "../../../worker/platform/env";
import { askEngine, configuredEngines } from "../../../worker/platform/providers/ai-engines";
import { providersConfigured } from "../../../worker/features/setup/status";

const AUSTIN = { city: "Austin", region: "TX", country: "US", timezone: "America/Chicago" };
const mark = crypto.randomUUID().slice(0, 8);
const ask = (question: string): AskInput => ({ question: `${question} ${mark}`, location: AUSTIN });

type Logged = { engine: string; question: string; sample: number; status: number; body: Record<string, unknown> };
async function engineRequests(q: string): Promise<Logged[]> {
  const res = await fetch(`${env.TEST_AI_ENGINES_URL}/__requests?q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { requests: Logged[] }).requests;
}

describe("AI Visibility engines", () => {
  it("each configured engine answers with the text, its cited sources and the model", async () => {
    expect(configuredEngines(env)).toEqual([...AI_ENGINES]);
    const q = "best plumber in Austin [aiv:names=Ridge Plumbing|Desert Sun Plumbing] [aiv:cite=angi.com|yelp.com]";
    for (const engine of AI_ENGINES) {
      const out = await askEngine(env, engine, ask(q));
      expect(out, engine).toMatchObject({ ok: true });
      if (!out.ok) continue;
      expect(out.answer.text, engine).toContain("**Ridge Plumbing**");
      expect(out.answer.text, engine).toContain("**Desert Sun Plumbing**");
      expect(out.answer.sources, engine).toHaveLength(2);
    }
    const asked = await engineRequests(mark);
    expect(asked.map((r) => r.engine).sort()).toEqual(["chatgpt", "gemini", "perplexity"]);
    const chatgpt = asked.find((r) => r.engine === "chatgpt")!.body;
    expect(chatgpt.max_tool_calls).toBe(2);
    expect(chatgpt.tools).toEqual([{ type: "web_search", user_location: { type: "approximate", city: "Austin", region: "TX", country: "US", timezone: "America/Chicago" } }]);
  });

  it("ChatGPT's answer names the model and its url_citation sources", async () => {
    const out = await askEngine(env, "chatgpt", ask("plumber [aiv:names=Ridge Plumbing] [aiv:cite=ridgeplumbing.com]"));
    expect(out).toEqual({
      ok: true,
      answer: {
        text: expect.stringContaining("1. **Ridge Plumbing** - "),
        sources: [{ url: "https://www.ridgeplumbing.com/austin-tx/plumbers", title: "Best plumbers in Austin - ridgeplumbing.com" }],
        model: "gpt-4.1-mini-2025-04-14",
      },
    });
  });

  it("a 500, a 429 and a time-out are failed outcomes, never an answer", async () => {
    const quick = { ...env, AI_ENGINE_TIMEOUT_MS: "300" } as Env;
    const cases: [AiEngine, string, string][] = [
      ["chatgpt", "[aiv:fail=500]", "http"],
      ["perplexity", "[aiv:fail=429]", "rate_limited"],
      ["gemini", "[aiv:fail=timeout]", "timeout"],
      ["google_ai_mode", "[aiv:fail=500]", "http"],
      ["google_ai_overview", "[aiv:fail=429]", "rate_limited"],
      ["chatgpt", "[aiv:fail=timeout]", "timeout"],
    ];
    for (const [engine, marker, kind] of cases) {
      const out = await askEngine(quick, engine, ask(`plumber ${marker}`));
      expect(out, `${engine} ${marker}`).toMatchObject({ ok: false, kind });
      if (!out.ok) expect(out.error, engine).not.toMatch(/API_KEY|BASE_URL|server error|rate_limit_exceeded/i);
    }
  });

  it("an engine without its key is not offered and never called", async () => {
    const without = { ...env, PERPLEXITY_API_KEY: "", GEMINI_API_KEY: "", OPENAI_API_KEY: "", SERPAPI_KEY: "" } as Env;
    expect(configuredEngines(without)).toEqual([]);
    const q = "plumber [aiv:names=Nobody Called]";
    for (const engine of AI_ENGINES) expect(await askEngine(without, engine, ask(q)), engine).toMatchObject({ ok: false, kind: "not_configured" });
    expect(await engineRequests(`Nobody Called] ${mark}`)).toEqual([]);
    // The admin's Set-up checklist says which engines are configured.
    expect(providersConfigured(env)).toMatchObject({ openai: true, perplexity: true, gemini: true });
    expect(providersConfigured(without)).toMatchObject({ openai: false, perplexity: false, gemini: false, search: false });
  });
});
