// A loopback fake of three AI Visibility engines (issue 29) under path prefixes: OpenAI's Responses API
// (`/openai/v1/responses`, OPENAI_BASE_URL = `${url}/openai/v1`), Perplexity's Sonar API (`/perplexity/chat/completions`,
// PERPLEXITY_BASE_URL = `${url}/perplexity`) and Gemini (`/gemini/v1beta/models/<model>:generateContent`,
// GEMINI_BASE_URL = `${url}/gemini`). Answers are the documented examples (fixtures/openai, perplexity, gemini) with the
// text and sources the question's markers script (ai-engines-script.ts); samples are counted per engine and question.
// GET /__requests?engine=&q= lists what was asked; POST /__reset forgets requests and sample counts; POST /__config
// {latencyMs} sets the wait before each answer (the benchmark's 2 s per call).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AiEngine } from '../../worker/features/ai-visibility/rules/contract';
import { AI_FAKE_HANG_MS, answerText, citedFor, failureFor, namesFor, parseAiScript, plainQuestion, type AiFailure } from './ai-engines-script';
import { geminiGroundedAnswer, googleStatusError, openAiError, openAiWebSearchResponse, perplexityCompletion, perplexityError } from './documented-answers';
import { plainHeaders, readBody, sendJson, serveFake, waitUnlessClosed } from './http-helpers';

export interface AiEngineRequest {
  engine: AiEngine;
  path: string;
  /** The question as sent (markers included). */
  question: string;
  /** 0-based, per engine and question. */
  sample: number;
  /** What the fake answered (0 when the client gave up first). */
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface AiEnginesFake {
  url: string;
  port: number;
  requests: AiEngineRequest[];
  /** Added before every answer (failures included). */
  config: { latencyMs: number };
  reset(): void;
  close(): Promise<void>;
}

export const AI_FAKE_KEYS = { openai: 'test-openai-key', perplexity: 'test-perplexity-key', gemini: 'test-gemini-key' } as const;

/** The worker's settings for OpenAI, Perplexity and Gemini against this fake at `url` (Google's two are the search fake). */
export function aiEngineVars(url: string) {
  return {
    OPENAI_API_KEY: AI_FAKE_KEYS.openai,
    OPENAI_BASE_URL: `${url}/openai/v1`,
    PERPLEXITY_API_KEY: AI_FAKE_KEYS.perplexity,
    PERPLEXITY_BASE_URL: `${url}/perplexity`,
    GEMINI_API_KEY: AI_FAKE_KEYS.gemini,
    GEMINI_BASE_URL: `${url}/gemini`,
  };
}

type Wire = Record<string, any>;

function questionOf(engine: AiEngine, body: Wire): string {
  if (engine === 'chatgpt') {
    if (typeof body.input === 'string') return body.input;
    const last = Array.isArray(body.input) ? body.input.at(-1) : null;
    return typeof last?.content === 'string' ? last.content : '';
  }
  if (engine === 'perplexity') {
    const users = (Array.isArray(body.messages) ? body.messages : []).filter((m: Wire) => m?.role === 'user');
    return typeof users.at(-1)?.content === 'string' ? users.at(-1).content : '';
  }
  const contents = Array.isArray(body.contents) ? body.contents : [];
  return ((contents.at(-1)?.parts ?? []) as Wire[]).map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

function route(method: string, path: string): { engine: AiEngine; model?: string } | null {
  if (method !== 'POST') return null;
  if (path === '/openai/v1/responses') return { engine: 'chatgpt' };
  if (path === '/perplexity/chat/completions') return { engine: 'perplexity' };
  const gemini = /^\/gemini\/v1beta\/models\/([^/:]+):generateContent$/.exec(path);
  return gemini ? { engine: 'gemini', model: gemini[1] } : null;
}

function authorised(engine: AiEngine, req: IncomingMessage): boolean {
  if (engine === 'gemini') return req.headers['x-goog-api-key'] === AI_FAKE_KEYS.gemini;
  const key = engine === 'chatgpt' ? AI_FAKE_KEYS.openai : AI_FAKE_KEYS.perplexity;
  return req.headers.authorization === `Bearer ${key}`;
}

/** The provider's documented error for a status. */
function errorBody(engine: AiEngine, status: number): unknown {
  const words = status === 401 ? 'Incorrect API key provided' : status === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request';
  if (engine === 'chatgpt') return openAiError(words, status === 429 ? 'requests' : status === 401 ? 'invalid_request_error' : 'server_error', status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : null);
  if (engine === 'perplexity') return perplexityError(words, status === 429 ? 'rate_limit_exceeded' : 'server_error', status);
  return googleStatusError(status, words, status === 429 ? 'RESOURCE_EXHAUSTED' : status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL');
}

export async function startAiEnginesFake(port = 0, initial: { latencyMs?: number } = {}): Promise<AiEnginesFake> {
  const requests: AiEngineRequest[] = [];
  const config = { latencyMs: initial.latencyMs ?? 0 };
  const samples = new Map<string, number>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    if (req.method === 'GET' && url.pathname === '/__requests') {
      const engine = url.searchParams.get('engine');
      const q = url.searchParams.get('q');
      return sendJson(res, 200, { requests: requests.filter((r) => (engine === null || r.engine === engine) && (q === null || r.question.includes(q))) });
    }
    if (req.method === 'POST' && url.pathname === '/__config') {
      const asked = JSON.parse((await readBody(req)) || '{}') as { latencyMs?: unknown };
      if (typeof asked.latencyMs === 'number' && asked.latencyMs >= 0) config.latencyMs = asked.latencyMs;
      return sendJson(res, 200, config);
    }
    if (req.method === 'POST' && url.pathname === '/__reset') {
      requests.length = 0;
      samples.clear();
      return sendJson(res, 200, { ok: true });
    }
    const target = route(req.method ?? '', url.pathname);
    if (!target) return sendJson(res, 404, { error: { message: `Unknown request URL: ${req.method} ${url.pathname}` } });
    const { engine } = target;
    let body: Wire;
    try {
      body = JSON.parse((await readBody(req)) || '{}') as Wire;
    } catch {
      return sendJson(res, 400, errorBody(engine, 400));
    }
    const question = questionOf(engine, body);
    const record: AiEngineRequest = { engine, path: url.pathname, question, sample: -1, status: 0, body, headers: plainHeaders(req) };
    requests.push(record);
    const answer = (status: number, payload: unknown) => {
      record.status = status;
      sendJson(res, status, payload);
    };
    if (!authorised(engine, req)) return answer(401, errorBody(engine, 401));
    if (config.latencyMs > 0 && !(await waitUnlessClosed(res, config.latencyMs))) return;

    const key = `${engine}|${question}`;
    const sample = samples.get(key) ?? 0;
    samples.set(key, sample + 1);
    record.sample = sample;
    const script = parseAiScript(question);
    const failure: AiFailure | null = failureFor(script, engine, sample);
    if (failure === '500' || failure === '429') return answer(Number(failure), errorBody(engine, Number(failure)));
    if (failure === 'timeout') {
      await waitUnlessClosed(res, AI_FAKE_HANG_MS);
      if (!res.destroyed && !res.headersSent) answer(500, errorBody(engine, 500));
      return;
    }
    const text = failure === 'empty' ? '' : answerText(question, namesFor(script, sample));
    const sources = failure === 'empty' ? [] : citedFor(script);
    const now = Math.floor(Date.now() / 1000);
    if (engine === 'chatgpt') {
      const tool = Array.isArray(body.tools) ? body.tools.find((t: Wire) => t?.type === 'web_search') : null;
      return answer(200, openAiWebSearchResponse({ id: `resp_${randomUUID().replace(/-/g, '')}`, createdAt: now, model: `${String(body.model ?? 'gpt-4.1-mini')}-2025-04-14`, text, sources, query: plainQuestion(question), location: tool?.user_location ?? null }));
    }
    if (engine === 'perplexity') {
      return answer(200, perplexityCompletion({ id: randomUUID(), created: now, model: String(body.model ?? 'sonar'), content: text, sources }));
    }
    return answer(200, geminiGroundedAnswer({ model: target.model ?? 'gemini-2.5-flash', text, sources, query: plainQuestion(question) }));
  }

  return serveFake(port, handle, {
    requests,
    config,
    reset() {
      requests.length = 0;
      samples.clear();
    },
  });
}
