// The AI Visibility engine fakes (issue 29) answer the real clients (worker/platform/providers/ai-engines.ts, the `openai` SDK
// for ChatGPT) with the documented shapes, vary per sample as the question's markers script, and fail on demand.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AI_ENGINES, type AiEngine, type AskInput } from '../../worker/features/ai-visibility/rules/contract';
import type { Env } from '../../worker/platform/env';
import { findNamedBusinesses } from '../../worker/features/ai-visibility/rules/ai-visibility';
import { askEngine, configuredEngines } from '../../worker/platform/providers/ai-engines';
import { aiEngineVars, startAiEnginesFake, type AiEnginesFake } from './ai-engines-fake';
import { parseAiScript } from './ai-engines-script';
import { fixture } from './fixtures';
import { geminiGroundedAnswer, openAiWebSearchResponse, perplexityCompletion, serpAiModeAnswer, serpAiOverviewAnswer, serpAiOverviewApiAnswer } from './documented-answers';
import { startSearchFake, type SearchFake } from './search-fake';

let engines: AiEnginesFake;
let search: SearchFake;
let env: Env;
const AUSTIN = { city: 'Austin', region: 'Texas', country: 'US', postalCode: '78701', timezone: 'America/Chicago' };
const ask = (question: string): AskInput => ({ question, location: AUSTIN });

beforeAll(async () => {
  engines = await startAiEnginesFake();
  search = await startSearchFake();
  env = {
    ...aiEngineVars(engines.url),
    SERPAPI_KEY: 'test-serp-key',
    SERPAPI_BASE_URL: search.url,
    AI_ENGINE_TIMEOUT_MS: '2000',
  } as unknown as Env;
});
afterAll(async () => {
  await engines.close();
  await search.close();
});
beforeEach(() => {
  engines.reset();
  search.reset();
});

/** Every key path of a JSON value (array items merged), to compare an answer's shape with its fixture's. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => keyPaths(v, `${prefix}[]`)))].sort();
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...keyPaths(v, `${prefix}.${k}`)]).sort();
  return [];
}

describe('the AI engine fakes', () => {
  it('each answer has exactly its documented example keys', () => {
    const sources = [{ url: 'https://www.angi.com/austin', title: 'Angi' }];
    const pairs: [unknown, unknown][] = [
      [openAiWebSearchResponse({ id: 'resp_1', createdAt: 1, model: 'm', text: 'x', sources, query: 'q', location: null }), fixture('openai', 'response-web-search.json')],
      [perplexityCompletion({ id: 'p', created: 1, model: 'sonar', content: 'x', sources }), fixture('perplexity', 'chat-completion.json')],
      [geminiGroundedAnswer({ model: 'g', text: 'x', sources, query: 'q' }), fixture('gemini', 'generate-content-google-search.json')],
      [serpAiOverviewAnswer({ q: 'q', location: 'l', intro: 'i', names: [{ title: 'A', snippet: 's' }], sources }), fixture('serpapi', 'google-ai-overview.json')],
      [serpAiOverviewApiAnswer({ q: 'q', location: 'l', intro: 'i', names: [{ title: 'A', snippet: 's' }], sources }), fixture('serpapi', 'google-ai-overview-api.json')],
      [serpAiModeAnswer({ q: 'q', location: 'l', intro: 'i', names: [{ title: 'A', snippet: 's' }], sources }), fixture('serpapi', 'google-ai-mode.json')],
    ];
    for (const [answer, documented] of pairs) expect(keyPaths(answer)).toEqual(keyPaths(documented));
  });

  it('every engine is configured, and each answers through the real client with the business names and sources', async () => {
    expect(configuredEngines(env)).toEqual([...AI_ENGINES]);
    const q = 'best plumber in Austin [aiv:names=Ridge Plumbing|Desert Sun Plumbing] [aiv:cite=angi.com|ridgeplumbing.com]';
    for (const engine of AI_ENGINES) {
      const out = await askEngine(env, engine, ask(q));
      expect(out.ok, engine).toBe(true);
      if (!out.ok) continue;
      expect(out.answer.text, engine).toMatch(/\*\*Ridge Plumbing\*\*[^]*\*\*Desert Sun Plumbing\*\*/);
      expect(out.answer.sources.length, engine).toBe(2);
      expect(findNamedBusinesses(out.answer.text, [{ name: 'Desert Sun Plumbing' }], { name: 'Ridge Plumbing', website: 'ridgeplumbing.com' }, out.answer.sources), engine).toEqual([
        { name: 'Ridge Plumbing', self: true, local: true },
        { name: 'Desert Sun Plumbing', self: false, local: true },
      ]);
      if (engine === 'gemini') expect(out.answer.sources.map((s) => s.title)).toEqual(['angi.com', 'ridgeplumbing.com']);
      else expect(out.answer.sources.map((s) => new URL(s.url).hostname)).toEqual(['www.angi.com', 'www.ridgeplumbing.com']);
    }
  });

  it('the requests carry the documented tool and the asker\'s location', async () => {
    await askEngine(env, 'chatgpt', ask('plumber [aiv:names=A]'));
    await askEngine(env, 'perplexity', ask('plumber [aiv:names=A]'));
    await askEngine(env, 'gemini', ask('plumber [aiv:names=A]'));
    await askEngine(env, 'google_ai_mode', ask('plumber [aiv:names=A]'));
    const [openai, perplexity, gemini] = ['chatgpt', 'perplexity', 'gemini'].map((e) => engines.requests.find((r) => r.engine === e)!.body as Record<string, any>);
    expect(openai).toMatchObject({ model: 'gpt-4.1-mini', input: 'plumber [aiv:names=A]', tools: [{ type: 'web_search', user_location: { type: 'approximate', city: 'Austin', region: 'Texas', country: 'US', timezone: 'America/Chicago' } }] });
    expect(perplexity).toMatchObject({ model: 'sonar', web_search_options: { user_location: { country: 'US', region: 'Texas', city: 'Austin' } } });
    expect(gemini).toMatchObject({ tools: [{ google_search: {} }], systemInstruction: { parts: [{ text: 'The user is in Austin, Texas, US.' }] } });
    expect(engines.requests.find((r) => r.engine === 'gemini')!.path).toBe('/gemini/v1beta/models/gemini-2.5-flash:generateContent');
    expect(search.requests.at(-1)).toMatchObject({ engine: 'google_ai_mode', location: 'Austin, Texas, United States', noCache: 'true' });
    expect(openai).toMatchObject({ store: false, max_tool_calls: 2 });
  });

  it('names the first business in exactly the samples the pattern says, counted per engine and question', async () => {
    const q = 'best plumber [aiv:names=Ridge Plumbing|Desert Sun Plumbing] [aiv:pattern=01010]';
    for (const engine of AI_ENGINES) {
      const named: boolean[] = [];
      for (let i = 0; i < 5; i++) {
        const out = await askEngine(env, engine, ask(q));
        // The figures' own rule reads each engine's answer as the client returns it.
        named.push(out.ok && findNamedBusinesses(out.answer.text, [{ name: 'Desert Sun Plumbing' }], { name: 'Ridge Plumbing' }, out.answer.sources).some((b) => b.self));
      }
      expect(named, engine).toEqual([false, true, false, true, false]);
    }
  });

  it('an AI Overview loaded apart is fetched with its page_token (two calls)', async () => {
    const q = 'water heater install [aiv:names=Ridge Plumbing] [aiv:page_token]';
    const out = await askEngine(env, 'google_ai_overview', ask(q));
    expect(out.ok && out.answer.text).toContain('**Ridge Plumbing**');
    expect(search.requests.map((r) => r.engine)).toEqual(['google', 'google_ai_overview']);
  });

  it('fails on demand: a 500, a 429, a time-out and an empty answer, per engine and per sample', async () => {
    const cases: [string, AiEngine, string][] = [
      ['[aiv:fail=perplexity:500]', 'perplexity', 'http'],
      ['[aiv:fail=chatgpt:429]', 'chatgpt', 'rate_limited'],
      ['[aiv:fail=google_ai_mode:429]', 'google_ai_mode', 'rate_limited'],
      ['[aiv:fail=gemini:timeout]', 'gemini', 'timeout'],
      ['[aiv:fail=google_ai_overview:timeout]', 'google_ai_overview', 'timeout'],
      ['[aiv:fail=empty]', 'google_ai_overview', 'empty'],
      ['[aiv:fail=empty]', 'chatgpt', 'empty'],
    ];
    const quick = { ...env, AI_ENGINE_TIMEOUT_MS: '300' } as Env;
    for (const [marker, engine, kind] of cases) expect(await askEngine(quick, engine, ask(`plumber ${marker}`)), marker).toMatchObject({ ok: false, kind });
    // Another engine is not touched by an engine's failure; `@1` fails the second sample only.
    expect((await askEngine(env, 'gemini', ask('plumber [aiv:fail=perplexity:500]'))).ok).toBe(true);
    const q = 'plumber [aiv:fail=gemini:500@1]';
    const oks = [];
    for (let i = 0; i < 3; i++) oks.push((await askEngine(env, 'gemini', ask(q))).ok);
    expect(oks).toEqual([true, false, true]);
  });

  it('refuses a wrong key as the provider does, and the client says so without the provider\'s words', async () => {
    const out = await askEngine({ ...env, PERPLEXITY_API_KEY: 'wrong' } as Env, 'perplexity', ask('plumber'));
    expect(out).toEqual({ ok: false, kind: 'http', error: 'Perplexity refused the question (HTTP 401)' });
    expect(engines.requests.at(-1)!.status).toBe(401);
  });

  it('takes its latency from /__config (the benchmark sets 2 s per call from another process)', async () => {
    const set = await fetch(`${engines.url}/__config`, { method: 'POST', body: JSON.stringify({ latencyMs: 5 }) });
    expect(await set.json()).toEqual({ latencyMs: 5 });
    expect(engines.config.latencyMs).toBe(5);
    expect((await askEngine(env, 'perplexity', ask('plumber [aiv:names=A]'))).ok).toBe(true);
    engines.config.latencyMs = 0;
    const serp = await fetch(`${search.url}/__config`, { method: 'POST', body: JSON.stringify({ aiLatencyMs: 5 }) });
    expect(await serp.json()).toMatchObject({ aiLatencyMs: 5 });
    expect((await askEngine(env, 'google_ai_mode', ask('plumber [aiv:names=A]'))).ok).toBe(true);
    search.config.aiLatencyMs = 0;
  });

  it('reads its markers', () => {
    expect(parseAiScript('q [aiv:names=A|B] [aiv:pattern=10] [aiv:fail=gemini:timeout@1,3] [aiv:cite=a.com]')).toEqual({
      names: ['A', 'B'],
      pattern: '10',
      cite: ['a.com'],
      fails: [{ engine: 'gemini', failure: 'timeout', samples: [1, 3] }],
      pageToken: false,
    });
  });
});
