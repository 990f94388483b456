// A loopback OpenAI-compatible chat-completions server whose behaviour is picked by a `[fake:SCENARIO]` marker in the prompt.
// Its answers are OpenAI's documented examples (fixtures/openai, through documented-answers.ts) with this answer's content.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAiCompletion, openAiError, openAiStreamChunks } from './documented-answers';
import { listen, plainHeaders, readBody, sendJson, waitUnlessClosed } from './http-helpers';
import { hostile, XSS_LINKS, XSS_TEXT } from './xss';

/** How long the `slow` scenario waits before answering. */
export const FAKE_SLOW_MS = 5000;

export const FAKE_SCENARIOS = [
  'ok',
  'slow',
  '500',
  '500-then-ok',
  '429',
  'malformed',
  'empty',
  'schema-invalid',
  'no-usage',
  'missing-fields',
  'stream-cut',
  'xss',
  'too-long',
] as const;
export type FakeScenario = (typeof FAKE_SCENARIOS)[number];

/**
 * `[fake:chaos]` or `[fake:chaos-SEED]`: a seeded random mix. Of the calls for one prompt, a share
 * CHAOS_FAILURE_RATE fails (a 500, a 429, malformed, empty or schema-invalid JSON, or, for a share
 * CHAOS_TIMEOUT_SHARE of the failures, no answer until the client gives up); the rest answer like
 * `ok` after a small random latency. The draw depends only on the seed, the prompt and how many
 * times that prompt was asked before, so a run is reproducible whatever order requests come in.
 */
export const CHAOS_FAILURE_RATE = 0.3;
export const CHAOS_TIMEOUT_SHARE = 0.2;
export const CHAOS_MAX_LATENCY_MS = 25;
const CHAOS_ERRORS = ['500', '429', 'malformed', 'empty', 'schema-invalid'] as const;
/** The longest a `chaos` time-out holds a request open when the client never gives up. */
const CHAOS_HANG_MS = 60_000;

export function chaosMarker(seed: number): string {
  return `[fake:chaos-${seed}]`;
}

/** A number in [0, 1) from a hash of the parts. */
function unitHash(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('|')).digest().readUInt32BE(0) / 2 ** 32;
}

export type ChaosOutcome = { kind: 'ok'; latencyMs: number } | { kind: 'timeout' } | { kind: (typeof CHAOS_ERRORS)[number] };

/** What the `chaos` scenario does with the `call`-th (0-based) request carrying this prompt. */
export function chaosOutcome(seed: string, prompt: string, call: number): ChaosOutcome {
  const u = unitHash(seed, call, prompt);
  if (u >= CHAOS_FAILURE_RATE) return { kind: 'ok', latencyMs: Math.floor(unitHash('latency', seed, call, prompt) * CHAOS_MAX_LATENCY_MS) };
  const v = unitHash('kind', seed, call, prompt);
  if (v < CHAOS_TIMEOUT_SHARE) return { kind: 'timeout' };
  return { kind: CHAOS_ERRORS[Math.floor(((v - CHAOS_TIMEOUT_SHARE) / (1 - CHAOS_TIMEOUT_SHARE)) * CHAOS_ERRORS.length)]! };
}

/** The marker a prompt carries to select a scenario, e.g. `fakeMarker('500')` → "[fake:500]". */
export function fakeMarker(scenario: FakeScenario): string {
  return `[fake:${scenario}]`;
}

/** The truncated JSON the `malformed` scenario answers with. */
export const MALFORMED_CONTENT = '{"metaSEO": ';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface OpenAiFakeOptions {
  port?: number;
  /** Added before every 200 answer (benchmarks use 300 ms). */
  latencyMs?: number;
  /** Wait of the `slow` scenario; defaults to FAKE_SLOW_MS. */
  slowMs?: number;
  /** Streams only: headers go out at once (no `latencyMs`), the first token after this many ms (the chat benchmark uses 200). */
  firstTokenMs?: number;
}

export interface OpenAiFake {
  /** Base URL ending in /v1, for `AI_BASE_URL` or `new OpenAI({ baseURL })`. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Forgets recorded requests and the `500-then-ok` and `chaos` memories. */
  reset(): void;
  close(): Promise<void>;
}

interface WireMessage {
  role?: string;
  content?: unknown;
}

interface WireRequest {
  model?: string;
  messages?: WireMessage[];
  response_format?: { type?: string };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

const MARKER = /\[fake:([a-z0-9-]+)\]/gi;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String((part as { text: unknown }).text) : ''))
      .join('');
  }
  return '';
}

/** The last marker in message order wins, so a later chat turn can change the behaviour. */
function scenarioOf(messages: WireMessage[]): string {
  let found = 'ok';
  for (const message of messages) {
    for (const match of textOf(message.content).matchAll(MARKER)) found = match[1]!.toLowerCase();
  }
  return found;
}

function estimate(text: string): number {
  return text ? Math.ceil(text.length / 4) : 0;
}

/** Plausible provider token counts: differ from the plain estimate by per-message framing, like real tokenizers. */
function providerUsage(messages: WireMessage[], content: string) {
  const prompt_tokens = messages.reduce((sum, m) => sum + estimate(textOf(m.content)) + 4, 3);
  const completion_tokens = estimate(content);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function field(prompt: string, labels: string[]): string | undefined {
  for (const label of labels) {
    const match = new RegExp(`${label}\\s*:[ \\t]*([^\\n\\r]+)`, 'i').exec(prompt);
    const value = match?.[1]?.replace(MARKER, '').trim();
    if (value) return value;
  }
  return undefined;
}

function promptFacts(prompt: string) {
  const name = field(prompt, ['Business name']) ?? 'Your Business';
  const keyword = field(prompt, ['Target keyword', 'Keyword']) ?? 'local services';
  const area = field(prompt, ['Business location', 'Location', 'Area']) ?? 'your area';
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'yourbusiness';
  return { name, keyword, area, slug };
}

/** A report that satisfies the spec's shape (§3): 3 GMB articles × 3 keywords, 3 blogs × 5 sections × 5 keywords, 3 posts. */
export function fakeReport(prompt: string, keywordsPerArticle = 3) {
  const { name, keyword, area, slug } = promptFacts(prompt);
  const kw = (i: number) => [`${keyword} ${area}`, `best ${keyword}`, `${keyword} near me`, `affordable ${keyword}`, `${name} reviews`][i % 5]!;
  return {
    metaSEO: {
      title: `${name} | ${keyword} in ${area}`.slice(0, 59),
      description: `${name} offers trusted ${keyword} in ${area}. Call today for a free estimate.`.slice(0, 159),
      url: `https://www.${slug}.com`,
      improvements: ['Put the main keyword at the start of the title', 'Add the service area to the description'],
    },
    perfectAd: {
      title: `${name} - Top Rated ${keyword}`,
      description: `Fast, friendly ${keyword} in ${area}. Licensed and insured. Book today.`,
      displayUrl: `www.${slug}.com`,
      targetUrl: `https://www.${slug}.com`,
      improvements: ['Mention a limited-time offer', 'Add a call extension'],
    },
    gmbArticles: [1, 2, 3].map((n) => ({
      title: `${keyword} tip ${n} from ${name}`,
      subtitle: `What ${area} homeowners should know (${n})`,
      targetKeywords: Array.from({ length: keywordsPerArticle }, (_, i) => kw(i + n)),
    })),
    blogStructures: [1, 2, 3].map((n) => ({
      title: `The ${area} guide to ${keyword}, part ${n}`,
      sections: ['Introduction', 'Common problems', 'How we help', 'Costs', 'Next steps'].map((s) => `${s} (${n})`),
      targetKeywords: [0, 1, 2, 3, 4].map((i) => kw(i + n)),
    })),
    facebookPosts: [1, 2, 3].map((n) => ({
      title: `${name} update ${n}`,
      content: `Need ${keyword} in ${area}? ${name} is here to help. Message us today! (${n})`,
    })),
    seoPotential: { score: 78, keyword_potential: 7.8, business_relevance: 7.4, competition: 'Medium' },
  };
}

/** The answer to the Facebook post generator's JSON prompt. */
export function fakeFacebookPost(prompt: string) {
  const { name, keyword, area } = promptFacts(prompt);
  const tag = (s: string) => `#${s.replace(/[^a-z0-9]+/gi, '')}`;
  return {
    title: `${name}: ${keyword} done right`,
    content: `Looking for ${keyword} in ${area}? ${name} is ready to help. Send us a message today!`,
    tags: [tag(name), tag(keyword), tag(area)],
    keywords: [keyword, `${keyword} ${area}`, `${keyword} near me`],
  };
}

function isFacebookPostPrompt(prompt: string): boolean {
  const text = prompt.toLowerCase();
  return text.includes('facebook post') && (text.includes('title, content, tags') || text.includes('tags and keywords'));
}

/** Sentences that make a text run past any network's limit (the `too-long` scenario). */
function padded(text: string, long: boolean, chars = 3500): string {
  if (!long) return text;
  let out = text;
  for (let n = 1; out.length < chars; n += 1) out += ` Sentence ${n} says a little more about the job.`;
  return out;
}

/** The content suite's tools (issue 20), recognised by their prompts; `long` answers past every limit. */
export function fakeContent(prompt: string, long = false): object | null {
  const { name, area } = promptFacts(prompt);
  const topic = field(prompt, ['Topic', 'Idea', 'Focus']) ?? 'local services';
  if (prompt.includes('summing up their local marketing results for')) {
    // The monthly client report's summary (issue 30): a paragraph from the prompt's own figures only, as asked.
    const m = /for the owner of (.+?) summing up their local marketing results for (.+?)\./.exec(prompt);
    const facts = [...prompt.matchAll(/^- (.+)$/gm)].map((f) => f[1]!.replace(/\.$/, ''));
    const said = facts.length ? ` ${facts.slice(0, 2).join('. ')}.` : '';
    return { summary: `Here is how ${m?.[1] ?? 'your business'} did in ${m?.[2] ?? 'the month'}.${said} The full report below shows each figure beside the month before.` };
  }
  if (prompt.includes("public reply to a Google review")) {
    // The review inbox's drafts (issue 28): thanks by the name the prompt gives, signs as asked; a review holding
    // "[ai:discount]" gets a reply that offers money, which the worker must refuse to use.
    const first = /by their first name, ([^.\n]+)\./.exec(prompt)?.[1] ?? null;
    const sign = /signature on its own line: (.+)$/m.exec(prompt)?.[1] ?? 'The team';
    const offer = prompt.includes('[ai:discount]') ? ' Here is 20% off your next visit.' : '';
    // "[ai:link]": the model followed a review's planted instruction and wrote a stranger's address and number.
    const planted = prompt.includes('[ai:link]') ? ' For more, visit cheap-roofs.example.biz or call 1-800-555-0199.' : '';
    return { reply: `Thank you${first ? `, ${first}` : ''}, for your kind words (AI draft).${offer}${planted}\n\n— ${sign}` };
  }
  if (prompt.includes('Write one Google Business Profile post')) {
    return {
      summary: padded(`${name} has news for ${area}: ${topic}. Our team is ready to help. Book a visit today.`, long),
      title: `${topic}`.slice(0, 40),
      terms: 'Valid for new customers.',
      imageIdea: `A photo of the ${name} team at work in ${area}.`,
    };
  }
  if (prompt.includes('Turn one idea into a post for each of these networks')) {
    const networks = [...prompt.matchAll(/^- ([a-z-]+): /gm)].map((m) => m[1]!);
    return {
      posts: networks.map((network) => ({
        network,
        content: padded(`${name} on ${network}: ${topic} in ${area}. Message us to book.`, long),
        hashtags: long ? Array.from({ length: 40 }, (_, i) => `#tag${i + 1}`) : /google|nextdoor/.test(network) ? [] : ['#local', `#${name.replace(/\W/g, '')}`],
      })),
    };
  }
  if (prompt.includes('short-form video script')) {
    const scene = (n: number) => ({ said: padded(`Scene ${n}: here is how ${name} handles ${topic}.`, long, 900), onScreen: `Step ${n}`, shot: `Close-up ${n}` });
    return {
      title: `${topic} in ${area}`,
      hook: { said: `Stop scrolling if you live in ${area}!`, onScreen: 'Watch this', shot: 'Face to camera' },
      scenes: [1, 2, 3].map(scene),
      cta: { said: `Call ${name} today.`, onScreen: `Book ${name}` },
      caption: padded(`${topic} with ${name}.`, long, 2600),
      hashtags: ['#hometips', '#local'],
    };
  }
  if (prompt.includes('Plan a month of social media posts')) {
    const slots = [...prompt.matchAll(/^(\d+)\. \d{4}-\d{2}-\d{2} week/gm)].map((m) => Number(m[1]));
    return {
      themes: ['Fake theme one', 'Fake theme two', 'Fake theme three', 'Fake theme four', 'Fake theme five', 'Fake theme six'],
      ideas: slots.map((slot) => ({ slot, idea: padded(`Idea ${slot}: ${topic} for ${area}.`, long, 400) })),
    };
  }
  return null;
}

function okContent(body: WireRequest, prompt: string, long = false): string {
  const messages = body.messages ?? [];
  if (body.response_format?.type === 'json_object') {
    const content = fakeContent(prompt, long);
    if (content) return JSON.stringify(content);
    return JSON.stringify(isFacebookPostPrompt(prompt) ? fakeFacebookPost(prompt) : fakeReport(prompt));
  }
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const quoted = textOf(lastUser?.content).trim().slice(0, 200);
  return `Thanks for asking "${quoted}". Our team is happy to help with that.`;
}

/** Every string of `node` with the markup payloads appended (links are set by the caller). */
function withPayloads<T>(node: T): T {
  if (typeof node === 'string') return hostile(node) as T;
  if (Array.isArray(node)) return node.map(withPayloads) as T;
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withPayloads(v)])) as T;
  }
  return node;
}

/**
 * The `xss` scenario: a model that writes markup into every text field and script links into every link
 * field (report: url, displayUrl, targetUrl), as a prompt-injected or hostile provider could.
 */
export function xssContent(body: WireRequest, prompt: string): string {
  if (body.response_format?.type === 'json_object') {
    if (isFacebookPostPrompt(prompt)) return JSON.stringify(withPayloads(fakeFacebookPost(prompt)));
    const plain = fakeReport(prompt);
    // The score block is numbers and a Low/Medium/High enum: a report that broke it would only test the template.
    const report = { ...withPayloads(plain), seoPotential: plain.seoPotential };
    report.metaSEO.url = XSS_LINKS.javascript;
    report.perfectAd.displayUrl = XSS_LINKS.disguised;
    report.perfectAd.targetUrl = XSS_LINKS.data;
    return JSON.stringify(report);
  }
  return `${XSS_TEXT} [Book now](${XSS_LINKS.javascript}) ${XSS_LINKS.data}`;
}

const errorBody = openAiError;

/** The documented completion object with this answer's id, model, content and usage. */
function completion(body: WireRequest, content: string, withUsage: boolean) {
  return openAiCompletion({
    id: `chatcmpl-fake-${randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'fake-model',
    content,
    usage: withUsage ? providerUsage(body.messages ?? [], content) : null,
  });
}

/**
 * Server-sent events in the OpenAI streaming shape (for a chat route that streams). `firstTokenMs`
 * holds the first content chunk back after the headers; `cut` drops the connection after one chunk.
 */
async function sendStream(
  res: ServerResponse,
  body: WireRequest,
  content: string,
  withUsage: boolean,
  opts: { firstTokenMs?: number; cut?: boolean } = {},
): Promise<void> {
  const chunks = openAiStreamChunks({ id: `chatcmpl-fake-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model' });
  const event = (chunk: object) => `data: ${JSON.stringify(chunk)}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(event(chunks.role()));
  if (opts.firstTokenMs && !(await waitUnlessClosed(res, opts.firstTokenMs))) return;
  if (opts.cut) {
    res.write(event(chunks.content(content.slice(0, 16))));
    res.destroy();
    return;
  }
  for (const piece of content.match(/[\s\S]{1,16}/g) ?? []) res.write(event(chunks.content(piece)));
  res.write(event(chunks.stop()));
  if (withUsage && body.stream_options?.include_usage) res.write(event(chunks.usage(providerUsage(body.messages ?? [], content))));
  res.end('data: [DONE]\n\n');
}

export async function startOpenAiFake(options: number | OpenAiFakeOptions = 0): Promise<OpenAiFake> {
  const opts: OpenAiFakeOptions = typeof options === 'number' ? { port: options } : options;
  let latencyMs = opts.latencyMs ?? 0;
  const slowMs = opts.slowMs ?? FAKE_SLOW_MS;
  const requests: RecordedRequest[] = [];
  const failedOnce = new Map<string, number>();
  const chaosCalls = new Map<string, number>();

  async function answer(res: ServerResponse, body: WireRequest, content: string, withUsage = true, cut = false): Promise<void> {
    // A stream with a first-token delay answers its headers at once (the chat benchmark's model).
    if (!(body.stream && opts.firstTokenMs) && !(await waitUnlessClosed(res, latencyMs))) return;
    if (body.stream) await sendStream(res, body, content, withUsage, { firstTokenMs: opts.firstTokenMs, cut });
    else sendJson(res, 200, completion(body, content, withUsage));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the raw text; answered below
    }
    // Tests inside workerd cannot see this process: they read what the fake received over loopback.
    if (req.method === 'GET' && path === '/__requests') {
      sendJson(res, 200, { requests });
      return;
    }
    // Benchmarks set the answers' latency per run (the client reports' bench: 1 s).
    if (req.method === 'POST' && path === '/__config') {
      const asked = (body as { latencyMs?: unknown } | undefined)?.latencyMs;
      if (typeof asked === 'number' && asked >= 0) latencyMs = asked;
      sendJson(res, 200, { latencyMs });
      return;
    }
    requests.push({ method: req.method ?? 'GET', path, body, headers: plainHeaders(req) });

    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(res, 404, errorBody(`Unknown request URL: ${req.method} ${path}`, 'invalid_request_error', 'unknown_url'));
      return;
    }
    if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) {
      sendJson(res, 401, errorBody('No auth credentials found', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    if (!body || typeof body !== 'object' || !Array.isArray((body as WireRequest).messages)) {
      sendJson(res, 400, errorBody('Request body must be JSON with a messages array', 'invalid_request_error', null));
      return;
    }

    const request = body as WireRequest;
    const messages = request.messages ?? [];
    const prompt = messages.map((m) => textOf(m.content)).join('\n');
    const scenario = scenarioOf(messages);

    const chaos = /^chaos(?:-(\d+))?$/.exec(scenario);
    if (chaos) {
      const key = createHash('sha256').update(prompt).digest('hex');
      const call = chaosCalls.get(key) ?? 0;
      chaosCalls.set(key, call + 1);
      const outcome = chaosOutcome(chaos[1] ?? '0', prompt, call);
      if (outcome.kind === 'ok') {
        if (!(await waitUnlessClosed(res, outcome.latencyMs))) return;
        return answer(res, request, okContent(request, prompt));
      }
      if (outcome.kind === 'timeout') {
        await waitUnlessClosed(res, CHAOS_HANG_MS);
        if (!res.destroyed) res.destroy();
        return;
      }
      return respond(outcome.kind, res, request, prompt);
    }
    return respond(scenario, res, request, prompt);
  }

  async function respond(scenario: string, res: ServerResponse, request: WireRequest, prompt: string): Promise<void> {
    switch (scenario as FakeScenario) {
      case 'ok':
        return answer(res, request, okContent(request, prompt));
      case 'too-long':
        return answer(res, request, okContent(request, prompt, true));
      case 'stream-cut':
        return answer(res, request, okContent(request, prompt), true, true);
      case 'xss':
        return answer(res, request, xssContent(request, prompt));
      case 'no-usage':
        return answer(res, request, okContent(request, prompt), false);
      case 'slow':
        if (!(await waitUnlessClosed(res, slowMs))) return;
        return answer(res, request, okContent(request, prompt));
      case '500':
        sendJson(res, 500, errorBody('The server had an error while processing your request.', 'server_error', null));
        return;
      case '500-then-ok': {
        const key = createHash('sha256').update(prompt).digest('hex');
        const seen = failedOnce.get(key) ?? 0;
        failedOnce.set(key, seen + 1);
        if (seen === 0) {
          sendJson(res, 500, errorBody('The server had an error while processing your request.', 'server_error', null));
          return;
        }
        return answer(res, request, okContent(request, prompt));
      }
      case '429':
        sendJson(res, 429, errorBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), {
          'retry-after': '1',
        });
        return;
      case 'malformed':
        return answer(res, request, MALFORMED_CONTENT);
      case 'empty':
        return answer(res, request, '');
      case 'schema-invalid':
        return answer(res, request, JSON.stringify(fakeReport(prompt, 2)));
      case 'missing-fields':
        // A post answer with only its content: the generator fills title, tags and keywords with the spec's defaults.
        return answer(res, request, JSON.stringify({ content: fakeFacebookPost(prompt).content }));
      default:
        // A typo in a marker should fail loudly, not silently behave like `ok`.
        sendJson(res, 400, errorBody(`Unknown fake scenario "${scenario}"`, 'invalid_request_error', 'unknown_fake_scenario'));
    }
  }

  const running = await listen(opts.port ?? 0, handle);
  return {
    url: `${running.origin}/v1`,
    port: running.port,
    requests,
    reset() {
      requests.length = 0;
      failedOnce.clear();
      chaosCalls.clear();
    },
    close: running.close,
  };
}
