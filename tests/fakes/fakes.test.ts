// The loopback fakes behave like the real services to the real `openai` SDK, and worker/platform/providers/ai.ts maps them right.
import OpenAI, {
  APIConnectionTimeoutError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/platform/env';
import {
  AiError,
  aiConfigured,
  chatCompletion,
  EMPTY_RESPONSE_MESSAGE,
  usageEvent,
} from '../../worker/platform/providers/ai';
import { estimateTokens } from '../../worker/domain/usage-cost';
import { listen } from './http-helpers';
import {
  FAKE_MP3,
  MALFORMED_CONTENT,
  startFakes,
  startOpenAiFake,
  startSearchFake,
  FAKE_SITE_BUSINESS,
  gridPointFails,
  gridRank,
  startTtsFake,
  type Fakes,
  type OpenAiFake,
  XSS_LINKS,
  XSS_TEXT,
} from './index';

let ai: OpenAiFake;

beforeAll(async () => {
  ai = await startOpenAiFake();
});
afterAll(async () => {
  await ai.close();
});
beforeEach(() => ai.reset());

function sdk(options: { timeout?: number; maxRetries?: number } = {}) {
  return new OpenAI({ baseURL: ai.url, apiKey: 'test', maxRetries: options.maxRetries ?? 0, timeout: options.timeout ?? 10_000 });
}

function reportPrompt(marker = '', businessName = 'Acme Roofing') {
  return `Write SEO content as JSON. ${marker}\nBusiness name: ${businessName}\nTarget keyword: roof repair\nLocation: Austin, TX\n`;
}

async function ask(prompt: string, options: { json?: boolean; timeout?: number; maxRetries?: number } = {}) {
  return sdk(options).chat.completions.create({
    model: 'google/gemini-2.5-flash',
    messages: [{ role: 'user', content: prompt }],
    max_tokens: 3000,
    temperature: 0.7,
    ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
  });
}

function env(overrides: Partial<Env> = {}): Env {
  return { AI_BASE_URL: ai.url, AI_API_KEY: 'test', ...overrides } as unknown as Env;
}

async function aiErrorOf(promise: Promise<unknown>): Promise<AiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiError);
  return error as AiError;
}

describe('OpenAI fake with the real SDK', () => {
  it('answers a JSON-mode report prompt with a complete report built from the business name', async () => {
    const completion = await ask(reportPrompt('[fake:ok]'), { json: true });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('google/gemini-2.5-flash');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);

    const report = JSON.parse(completion.choices[0]!.message.content!);
    expect(report.metaSEO.title).toContain('Acme Roofing');
    expect(report.metaSEO.improvements.length).toBeGreaterThan(0);
    expect(report.perfectAd).toMatchObject({ displayUrl: 'www.acmeroofing.com', targetUrl: 'https://www.acmeroofing.com' });
    expect(report.gmbArticles).toHaveLength(3);
    for (const article of report.gmbArticles) expect(article.targetKeywords).toHaveLength(3);
    expect(report.blogStructures).toHaveLength(3);
    for (const blog of report.blogStructures) {
      expect(blog.sections).toHaveLength(5);
      expect(blog.targetKeywords).toHaveLength(5);
    }
    expect(report.facebookPosts).toHaveLength(3);
    expect(report.seoPotential).toEqual({ score: 78, keyword_potential: 7.8, business_relevance: 7.4, competition: 'Medium' });
  });

  it('uses "Your Business" when the prompt names no business, and no marker means ok', async () => {
    const completion = await ask('Write SEO content as JSON for a plumber.', { json: true });
    expect(JSON.parse(completion.choices[0]!.message.content!).metaSEO.title).toContain('Your Business');
  });

  it('answers a Facebook post prompt with title, content, tags and keywords', async () => {
    const prompt = 'Write a Facebook post for a local business. Return JSON with title, content, tags and keywords.\nBusiness name: Bright Sparks\n';
    const post = JSON.parse((await ask(prompt, { json: true })).choices[0]!.message.content!);
    expect(post.title).toContain('Bright Sparks');
    expect(typeof post.content).toBe('string');
    expect(post.tags).toHaveLength(3);
    for (const tag of post.tags) expect(tag).toMatch(/^#/);
    expect(post.keywords).toHaveLength(3);
  });

  it('answers a plain chat with a sentence quoting the last user message', async () => {
    const completion = await sdk().chat.completions.create({
      model: 'm',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'Do you offer weekend service?' },
      ],
    });
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant' });
    expect(completion.choices[0]!.message.content).toContain('"Do you offer weekend service?"');
  });

  it('streams when asked to, in the OpenAI chunk format', async () => {
    const stream = await sdk().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toContain('"stream me"');
    expect(usage?.completion_tokens).toBe(estimateTokens(text));
  });

  it('500: always an InternalServerError with an OpenAI-style error body', async () => {
    for (let i = 0; i < 2; i++) {
      const error = await ask('[fake:500] hello').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as InternalServerError).status).toBe(500);
      expect((error as InternalServerError).type).toBe('server_error');
    }
  });

  it('429: a RateLimitError', async () => {
    const error = await ask('[fake:429] hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(429);
  });

  it('malformed: content that is not JSON', async () => {
    const content = (await ask(reportPrompt('[fake:malformed]'), { json: true })).choices[0]!.message.content!;
    expect(content).toBe(MALFORMED_CONTENT);
    expect(() => JSON.parse(content)).toThrow(SyntaxError);
  });

  it('empty: an empty content string', async () => {
    const completion = await ask(reportPrompt('[fake:empty]'), { json: true });
    expect(completion.choices[0]!.message.content).toBe('');
  });

  it('schema-invalid: valid JSON whose GMB articles have 2 target keywords', async () => {
    const report = JSON.parse((await ask(reportPrompt('[fake:schema-invalid]'), { json: true })).choices[0]!.message.content!);
    expect(report.gmbArticles).toHaveLength(3);
    for (const article of report.gmbArticles) expect(article.targetKeywords).toHaveLength(2);
  });

  it('missing-fields: a post answer with only its content', async () => {
    const answer = JSON.parse((await ask('[fake:missing-fields] one facebook post', { json: true })).choices[0]!.message.content!);
    expect(Object.keys(answer)).toEqual(['content']);
    expect(answer.content).toEqual(expect.any(String));
  });

  it('no-usage: an ok answer without the usage field', async () => {
    const completion = await ask('[fake:no-usage] hi');
    expect(completion.choices[0]!.message.content).toContain('hi');
    expect(completion.usage).toBeUndefined();
  });

  it('slow: a 300 ms client time-out gives APIConnectionTimeoutError, and the fake stops waiting', async () => {
    const started = Date.now();
    const error = await ask('[fake:slow] take your time', { timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(ai.requests).toHaveLength(1);
  });

  it('500-then-ok: the first request for a prompt fails, a repeat of it succeeds', async () => {
    const prompt = `[fake:500-then-ok] ${crypto.randomUUID()}`;
    await expect(ask(prompt)).rejects.toBeInstanceOf(InternalServerError);
    expect((await ask(prompt)).choices[0]!.message.content).toContain(prompt);
    // A different prompt has its own first failure: parallel tests do not interfere.
    await expect(ask(`${prompt} other`)).rejects.toBeInstanceOf(InternalServerError);
  });

  it('500-then-ok: the SDK own retry gets through', async () => {
    const prompt = `[fake:500-then-ok] ${crypto.randomUUID()}`;
    const completion = await ask(prompt, { maxRetries: 1 });
    expect(completion.choices[0]!.message.content).toContain(prompt);
    expect(ai.requests).toHaveLength(2);
  });

  it('xss: markup in every text of a report, post and chat reply, and script links in the report link fields', async () => {
    const report = JSON.parse((await ask(reportPrompt('[fake:xss]'), { json: true })).choices[0]!.message.content!);
    expect(report.metaSEO.title).toContain('Acme Roofing');
    expect(report.metaSEO.title).toContain(XSS_TEXT);
    expect(report.gmbArticles[2].targetKeywords[2]).toContain(XSS_TEXT);
    expect(report.facebookPosts[0].content).toContain(XSS_TEXT);
    expect(report.metaSEO.url).toBe(XSS_LINKS.javascript);
    expect(report.perfectAd).toMatchObject({ displayUrl: XSS_LINKS.disguised, targetUrl: XSS_LINKS.data });
    expect(report.seoPotential.competition).toBe('Medium');

    const postPrompt = 'Write a Facebook post. Return JSON with title, content, tags and keywords.\nBusiness name: Bright Sparks [fake:xss]\n';
    const post = JSON.parse((await ask(postPrompt, { json: true })).choices[0]!.message.content!);
    for (const text of [post.title, post.content, ...post.tags, ...post.keywords]) expect(text).toContain(XSS_TEXT);

    const reply = (await ask('Hello [fake:xss]')).choices[0]!.message.content!;
    expect(reply).toContain(XSS_TEXT);
    expect(reply).toContain(XSS_LINKS.javascript);
  });

  it('the last marker in the conversation wins', async () => {
    const completion = await sdk().chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: '[fake:500] earlier turn' },
        { role: 'user', content: '[fake:ok] later turn' },
      ],
    });
    expect(completion.choices[0]!.message.content).toContain('later turn');
  });

  it('an unknown scenario is a 400, so a typo fails loudly', async () => {
    const error = await ask('[fake:slwo] typo').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
  });

  it('401 without a bearer token; 404 JSON on an unknown path', async () => {
    const noAuth = await fetch(`${ai.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(noAuth.status).toBe(401);
    expect(((await noAuth.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');

    const error = await new OpenAI({ baseURL: ai.url, apiKey: 'test', maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(404);
    const notFound = await fetch(`${ai.url}/nope`, { method: 'POST' });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('content-type')).toBe('application/json');
  });

  it('records each request body and headers, and reset() forgets them', async () => {
    await ask('record me', { json: true });
    expect(ai.requests).toHaveLength(1);
    const [recorded] = ai.requests;
    expect(recorded!.headers.authorization).toBe('Bearer test');
    expect(recorded!.body).toMatchObject({ model: 'google/gemini-2.5-flash', response_format: { type: 'json_object' } });
    ai.reset();
    expect(ai.requests).toHaveLength(0);
  });

  it('latencyMs delays ok answers', async () => {
    const slowFake = await startOpenAiFake({ latencyMs: 300 });
    try {
      const client = new OpenAI({ baseURL: slowFake.url, apiKey: 'k', maxRetries: 0 });
      const started = Date.now();
      await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slowFake.close();
    }
  });
});

describe('worker/platform/providers/ai.ts against the fake', () => {
  it('aiConfigured is true only for a non-empty AI_API_KEY', () => {
    expect(aiConfigured(env())).toBe(true);
    expect(aiConfigured(env({ AI_API_KEY: '' }))).toBe(false);
    expect(aiConfigured(env({ AI_API_KEY: '   ' }))).toBe(false);
    expect(aiConfigured(env({ AI_API_KEY: undefined }))).toBe(false);
  });

  it('returns content, model and the provider usage; sends JSON mode, limits and attribution headers', async () => {
    const result = await chatCompletion(env({ APP_ORIGIN: 'https://example.test' }), {
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: reportPrompt() }],
      maxTokens: 3000,
      temperature: 0.7,
      json: true,
    });
    expect(JSON.parse(result.content).gmbArticles).toHaveLength(3);
    expect(result.model).toBe('google/gemini-2.5-flash');
    const sent = ai.requests[0]!;
    expect(sent.body).toMatchObject({ max_tokens: 3000, temperature: 0.7, response_format: { type: 'json_object' } });
    expect(sent.headers['http-referer']).toBe('https://example.test');
    expect(sent.headers['x-title']).toBe('Porchlight');
    // The fake counts tokens like a provider (framing included), so these differ from the plain estimate.
    expect(result.usage.estimated).toBe(false);
    expect(result.usage.input_tokens).toBe(estimateTokens(reportPrompt()) + 4 + 3);
    expect(result.usage.output_tokens).toBe(estimateTokens(result.content));
    expect(result.usage.total_tokens).toBe(result.usage.input_tokens + result.usage.output_tokens);
  });

  it('omits response_format without json and defaults the referer to porchlight.app', async () => {
    await chatCompletion(env(), { model: 'm', messages: [{ role: 'user', content: 'hello' }], maxTokens: 1000, temperature: 0.7 });
    expect(ai.requests[0]!.body).not.toHaveProperty('response_format');
    expect(ai.requests[0]!.headers['http-referer']).toBe('https://porchlight.app');
  });

  it('estimates usage when the provider sends none', async () => {
    const messages = [
      { role: 'system' as const, content: 'You are the assistant of Acme Roofing.' },
      { role: 'user' as const, content: '[fake:no-usage] Do you fix skylights?' },
    ];
    const result = await chatCompletion(env(), { model: 'm', messages, maxTokens: 1000, temperature: 0.7 });
    expect(result.usage).toEqual({
      input_tokens: estimateTokens(messages.map((m) => m.content).join('\n')),
      output_tokens: estimateTokens(result.content),
      total_tokens: estimateTokens(messages.map((m) => m.content).join('\n')) + estimateTokens(result.content),
      estimated: true,
    });
  });

  it('500 → AiError http with the status, and no retry of its own', async () => {
    const error = await aiErrorOf(
      chatCompletion(env(), { model: 'm', messages: [{ role: 'user', content: '[fake:500] x' }], maxTokens: 10, temperature: 0 }),
    );
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^API request failed: /);
    expect(ai.requests).toHaveLength(1);
  });

  it('429 → AiError rate_limited', async () => {
    const error = await aiErrorOf(
      chatCompletion(env(), { model: 'm', messages: [{ role: 'user', content: '[fake:429] x' }], maxTokens: 10, temperature: 0 }),
    );
    expect(error.kind).toBe('rate_limited');
    expect(error.status).toBe(429);
  });

  it('empty content → AiError empty with the spec wording', async () => {
    const error = await aiErrorOf(
      chatCompletion(env(), { model: 'm', messages: [{ role: 'user', content: '[fake:empty] x' }], maxTokens: 10, temperature: 0, json: true }),
    );
    expect(error.kind).toBe('empty');
    expect(error.message).toBe(EMPTY_RESPONSE_MESSAGE);
  });

  it('malformed content is returned as is (the caller validates it)', async () => {
    const result = await chatCompletion(env(), {
      model: 'm',
      messages: [{ role: 'user', content: '[fake:malformed] x' }],
      maxTokens: 10,
      temperature: 0,
      json: true,
    });
    expect(result.content).toBe(MALFORMED_CONTENT);
  });

  it('slow → AiError timeout, from timeoutMs or from AI_TIMEOUT_MS', async () => {
    const request = { model: 'm', messages: [{ role: 'user' as const, content: '[fake:slow] x' }], maxTokens: 10, temperature: 0 };
    expect((await aiErrorOf(chatCompletion(env(), { ...request, timeoutMs: 300 }))).kind).toBe('timeout');
    expect((await aiErrorOf(chatCompletion(env({ AI_TIMEOUT_MS: '300' }), request))).kind).toBe('timeout');
  });

  it("an aborted signal → AiError timeout (the caller's own deadline)", async () => {
    const error = await aiErrorOf(
      chatCompletion(env(), {
        model: 'm',
        messages: [{ role: 'user', content: '[fake:slow] x' }],
        maxTokens: 10,
        temperature: 0,
        signal: AbortSignal.timeout(200),
      }),
    );
    expect(error.kind).toBe('timeout');
  });

  it('nothing listening → AiError connection', async () => {
    const closed = await listen(0, (_req, res) => {
      res.end();
    });
    await closed.close();
    const error = await aiErrorOf(
      chatCompletion(env({ AI_BASE_URL: `${closed.origin}/v1` }), {
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        maxTokens: 10,
        temperature: 0,
      }),
    );
    expect(error.kind).toBe('connection');
  });

  it('refuses to call when AI is not configured', async () => {
    await expect(
      chatCompletion(env({ AI_API_KEY: '' }), { model: 'm', messages: [{ role: 'user', content: 'x' }], maxTokens: 10, temperature: 0 }),
    ).rejects.toBeInstanceOf(AiError);
    expect(ai.requests).toHaveLength(0);
  });

  it('usageEvent builds one usage-events message with the cost of the model', async () => {
    const result = await chatCompletion(env(), {
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'price me' }],
      maxTokens: 1000,
      temperature: 0.7,
    });
    const event = usageEvent({
      userId: 'user-1',
      toolName: 'chat',
      model: result.model,
      prompt: 'price me',
      response: result.content,
      usage: result.usage,
    });
    expect(event.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event).toMatchObject({
      user_id: 'user-1',
      tool_name: 'chat',
      model: 'google/gemini-2.5-flash',
      input_tokens: result.usage.input_tokens,
      output_tokens: result.usage.output_tokens,
      total_tokens: result.usage.total_tokens,
      request_data: 'price me',
      response_data: result.content,
    });
    const expected = Math.round(((result.usage.input_tokens * 0.0003 + result.usage.output_tokens * 0.0025) / 1000) * 1e6) / 1e6;
    expect(event.estimated_cost).toBeCloseTo(expected, 9);
    expect(new Date(event.created_at).toISOString()).toBe(event.created_at);
  });

  it('usageEvent: fixed figures, estimated usage, JSON-encoded data, fresh ids', () => {
    const fixed = usageEvent({
      userId: null,
      toolName: 'report',
      model: 'google/gemini-2.5-flash',
      prompt: 'p',
      response: 'r',
      usage: { input_tokens: 1000, output_tokens: 2000, total_tokens: 3000, estimated: false },
      requestData: { prompt: 'p' },
      responseData: null,
    });
    expect(fixed.estimated_cost).toBe(0.0053);
    expect(fixed.user_id).toBeNull();
    expect(fixed.request_data).toBe('{"prompt":"p"}');
    expect(fixed.response_data).toBeNull();

    const estimated = usageEvent({ userId: 'u', toolName: 'post', model: 'unknown-model', prompt: 'a'.repeat(4000), response: 'b'.repeat(2000) });
    expect(estimated).toMatchObject({ input_tokens: 1000, output_tokens: 500, total_tokens: 1500, estimated_cost: 0.002 });
    expect(estimated.event_id).not.toBe(fixed.event_id);
  });
});

describe('search fake', () => {
  it('returns five SerpAPI organic results; fail500, empty and a missing key as documented', async () => {
    const search = await startSearchFake();
    try {
      const params = (q: string, key: string | null = 'k') =>
        new URLSearchParams({ q, location: 'Austin, TX', ...(key ? { api_key: key } : {}) }).toString();

      const ok = await fetch(`${search.url}/search.json?${params('roof repair')}`);
      expect(ok.status).toBe(200);
      const { organic_results } = (await ok.json()) as { organic_results: Array<Record<string, unknown>> };
      expect(organic_results).toHaveLength(5);
      expect(organic_results.map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);
      for (const r of organic_results) {
        expect(Object.keys(r).sort()).toEqual(['displayed_link', 'favicon', 'link', 'position', 'snippet', 'title']);
      }
      expect(organic_results[0]!.title).toContain('roof repair');

      expect((await fetch(`${search.url}/search.json?${params('fail500 roofs')}`)).status).toBe(500);
      const empty = (await (await fetch(`${search.url}/search.json?${params('empty roofs')}`)).json()) as { organic_results: unknown[] };
      expect(empty.organic_results).toEqual([]);

      const noKey = await fetch(`${search.url}/search.json?${params('roofs', null)}`);
      expect(noKey.status).toBe(401);
      expect(await noKey.json()).toEqual({ error: 'Invalid API key.' });

      const hostileAnswer = (await (await fetch(`${search.url}/search.json?${params('xss roofs')}`)).json()) as {
        organic_results: Array<Record<string, string>>;
      };
      const hostileResults = hostileAnswer.organic_results;
      expect(hostileResults.map((r) => r.link.split(':')[0])).toEqual(['javascript', 'data', 'https', 'https', 'https']);
      expect(hostileResults[2]!.favicon).toBe(XSS_LINKS.javascript);
      for (const r of hostileResults) expect(r.title + r.snippet).toContain(XSS_TEXT);

      expect(search.requests.map((r) => r.q)).toEqual(['roof repair', 'fail500 roofs', 'empty roofs', 'roofs', 'xss roofs']);
      expect((await fetch(`${search.url}/other`)).status).toBe(404);
    } finally {
      await search.close();
    }
  });
});

describe('search fake: map searches from a point (ll)', () => {
  it('answers a ranking that varies by point, the same for the same point; flaky points fail once, dead points always', async () => {
    const search = await startSearchFake();
    try {
      const get = (q: string, ll: string) =>
        fetch(`${search.url}/search.json?${new URLSearchParams({ engine: 'google_maps', type: 'search', q, ll, api_key: 'k' }).toString()}`);
      const lls = Array.from({ length: 12 }, (_, i) => `@30.${2600 + i * 37}000,-97.7431000,13z`);
      const ranks = new Set<number>();
      for (const ll of lls) {
        const body = (await (await get('plumber', ll)).json()) as { local_results: Array<{ position: number; place_id: string }> };
        expect(body.local_results).toHaveLength(20);
        const own = body.local_results.find((r) => r.place_id === FAKE_SITE_BUSINESS.placeId);
        expect(own?.position ?? 21).toBe(Math.min(gridRank(ll), 21));
        ranks.add(gridRank(ll));
      }
      expect(ranks.size).toBeGreaterThan(3);
      const chosen = lls.filter((ll) => gridPointFails('flaky plumber', ll, 1) !== null);
      const fine = lls.filter((ll) => gridPointFails('flaky plumber', ll, 1) === null);
      expect(chosen.length).toBeGreaterThan(0);
      expect((await get('flaky plumber', chosen[0]!)).status).toBe(500);
      expect((await get('flaky plumber', chosen[0]!)).status).toBe(200);
      expect((await get('flaky plumber', fine[0]!)).status).toBe(200);
      expect((await get('deadpoint plumber', chosen[0]!)).status).toBe(429);
      expect((await get('deadpoint plumber', chosen[0]!)).status).toBe(429);
      expect(search.requests.at(-1)?.ll).toBe(chosen[0]);
    } finally {
      await search.close();
    }
  });
});

describe('tts fake', () => {
  it('returns audio/mpeg bytes with a key, 401 without', async () => {
    const tts = await startTtsFake();
    try {
      const body = JSON.stringify({ text: 'Hello there', model_id: 'eleven_monolingual_v1', voice_settings: { stability: 0.5, similarity_boost: 0.75 } });
      const ok = await fetch(`${tts.url}/v1/text-to-speech/voice-1`, {
        method: 'POST',
        headers: { 'xi-api-key': 'k', 'content-type': 'application/json' },
        body,
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('audio/mpeg');
      const bytes = new Uint8Array(await ok.arrayBuffer());
      expect(bytes.byteLength).toBe(FAKE_MP3.byteLength);
      expect(bytes.byteLength).toBeGreaterThan(100);
      expect([...bytes.slice(0, 2)]).toEqual([0xff, 0xfb]);
      expect(tts.requests[0]).toMatchObject({ voiceId: 'voice-1', body: { text: 'Hello there' } });

      const noKey = await fetch(`${tts.url}/v1/text-to-speech/voice-1`, { method: 'POST', body });
      expect(noKey.status).toBe(401);
    } finally {
      await tts.close();
    }
  });
});

describe('startFakes', () => {
  let fakes: Fakes;
  afterAll(async () => {
    await fakes?.close();
  });

  it('starts all three on loopback and reports their URLs', async () => {
    fakes = await startFakes({ aiLatencyMs: 0 });
    expect(fakes.urls.ai).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(fakes.urls.search).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fakes.urls.tts).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const result = await chatCompletion(env({ AI_BASE_URL: fakes.urls.ai }), {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 10,
      temperature: 0,
    });
    expect(result.content).toContain('hi');
    expect(fakes.ai.requests).toHaveLength(1);
  });

  it('fails cleanly, closing what started, when a port is taken', async () => {
    await expect(startFakes({ ports: { search: fakes.search!.port } })).rejects.toThrow(/EADDRINUSE/);
  });
});
