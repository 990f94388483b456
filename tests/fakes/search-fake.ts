// A loopback SerpAPI-shaped web search (GET /search.json) for the Google Search Results tool.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { plainHeaders, readBody, sendJson, sendRecorded, serveFake, waitUnlessClosed } from './http-helpers';
import { fakeGridAnswer, fakeMapsAnswer, fakeOrganicAnswer, gridPointFails, type LocalSearchConfig } from './local-search-fake';
import { hostile, XSS_LINKS, XSS_SHORT } from './xss';
import { fakeCitationPage, fakeCitationSearch } from './citation-web';
import { AI_FAKE_HANG_MS, answerText, blurbFor, citedFor, failureFor, namesFor, parseAiScript, plainQuestion } from './ai-engines-script';
import { serpAiModeAnswer, serpAiOverviewAnswer, serpAiOverviewApiAnswer, serpAiOverviewTokenAnswer } from './documented-answers';

export interface SearchRequest {
  q: string;
  /** The SerpAPI engine asked for: google (the tools, the audit's organic rank) or google_maps (the audit). */
  engine?: string;
  /** The status answered to an audit call (429s included), so a benchmark can count the calls that succeeded. */
  status?: number;
  location: string;
  /** A map search from a point (the rank grid and tracker): `@lat,lng,{zoom}z`. */
  ll?: string;
  /** AI Visibility (issue 29): the sample this AI Overview / AI Mode answer was (0-based, per engine and question). */
  sample?: number;
  /** The google_ai_overview engine's page_token. */
  pageToken?: string;
  /** SerpAPI's `no_cache` as sent (AI Visibility asks for fresh answers). */
  noCache?: string;
  apiKey: string | null;
  headers: Record<string, string>;
}

export interface SearchFake {
  /** Origin without trailing slash; requests go to `${url}/search.json?...`. */
  url: string;
  port: number;
  requests: SearchRequest[];
  /** The audit's answers: the fake website's origin, latency and a share of 429s (POST /__config from another process). */
  config: LocalSearchConfig;
  reset(): void;
  close(): Promise<void>;
}

export const SEARCH_RESULT_COUNT = 5;
/** How long a query containing 'slow' waits before answering. */
export const SEARCH_SLOW_MS = 3000;
/** The body a query containing 'errorbody' gets (SerpAPI answers 200 with an `error` field). */
export const SEARCH_ERROR_BODY = "Google hasn't returned any results for this query.";

/**
 * The scenario is picked by a word in the query: 'fail500' (HTTP 500), 'errorbody' (200 with an error),
 * 'slow' (answers after SEARCH_SLOW_MS), 'empty' (no organic results), 'xss' (hostile results: see
 * fakeHostileResults), anything else ok.
 * GET /__requests?q= lists the recorded requests (for tests running in another process, e.g. workerd).
 */

/** Five organic results in SerpAPI's shape, built from the query so tests can recognise them. */
export function fakeOrganicResults(q: string, location: string) {
  const slug = q.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'result';
  return Array.from({ length: SEARCH_RESULT_COUNT }, (_, i) => {
    const position = i + 1;
    const host = `www.${slug}-${position}.example.com`;
    return {
      position,
      title: `${q} in ${location} - Result ${position}`,
      link: `https://${host}/`,
      displayed_link: `https://${host}`,
      snippet: `Top rated ${q} serving ${location}. Free estimates, licensed and insured (result ${position}).`,
      favicon: `https://serpapi.com/searches/fake-${slug}/images/favicon-${position}.png`, // SerpAPI serves its own copies
    };
  });
}

/**
 * The 'xss' scenario: markup in every title, snippet and displayed link; the first result links to a
 * `javascript:` URL, the second to a `data:` URL, the third has a script favicon; the others are https.
 */
export function fakeHostileResults(q: string, location: string) {
  return fakeOrganicResults(q, location).map((r, i) => ({
    ...r,
    title: hostile(r.title),
    snippet: hostile(r.snippet),
    displayed_link: `${r.displayed_link}/${XSS_SHORT}`,
    link: i === 0 ? XSS_LINKS.javascript : i === 1 ? XSS_LINKS.data : r.link,
    favicon: i === 2 ? XSS_LINKS.javascript : r.favicon,
  }));
}

export async function startSearchFake(port = 0, initial: Partial<LocalSearchConfig> = {}): Promise<SearchFake> {
  const requests: SearchRequest[] = [];
  const config: LocalSearchConfig = { siteUrl: null, latencyMs: 0, every429: 0, ...initial };
  let auditCalls = 0;
  /** Searches per keyword and point, so a 'flaky' point fails its first try only. */
  const llTries = new Map<string, number>();
  /** AI Visibility's samples per engine and question (ai-engines-script.ts). */
  const aiSamples = new Map<string, number>();

  /**
   * AI Visibility's Google engines (issue 29): `engine=google` for a question carrying `[aiv:` markers answers its AI
   * Overview (inline, or with `[aiv:page_token]` a page_token that `engine=google_ai_overview` redeems), and
   * `engine=google_ai_mode` answers AI Mode, each as the markers script it (tests/fakes/ai-engines-script.ts).
   */
  async function aiAnswer(res: ServerResponse, url: URL, record: SearchRequest, origin: string): Promise<void> {
    const answer = (status: number, body: unknown) => {
      record.status = status;
      sendJson(res, status, body);
    };
    const engine = record.engine === 'google_ai_mode' ? 'google_ai_mode' : 'google_ai_overview';
    let question = record.q;
    let sample: number;
    if (record.engine === 'google_ai_overview') {
      // The second call of a lazily loaded overview: the token names the question and sample of the first.
      let token: { q?: string; sample?: number } = {};
      try {
        token = JSON.parse(Buffer.from(record.pageToken ?? '', 'base64url').toString('utf8')) as typeof token;
      } catch {
        // falls through to the documented refusal
      }
      if (typeof token.q !== 'string' || typeof token.sample !== 'number') return answer(400, { error: 'Invalid page_token.' });
      question = token.q;
      sample = token.sample;
    } else {
      const key = `${engine}|${question}`;
      sample = aiSamples.get(key) ?? 0;
      aiSamples.set(key, sample + 1);
    }
    record.sample = sample;
    if ((config.aiLatencyMs ?? 0) > 0 && !(await waitUnlessClosed(res, config.aiLatencyMs!))) return;
    const script = parseAiScript(question);
    const failure = record.engine === 'google_ai_overview' ? null : failureFor(script, engine, sample);
    if (failure === '500') return answer(500, { error: 'Internal server error.' });
    if (failure === '429') return answer(429, { error: 'Your account has run out of searches.' });
    if (failure === 'timeout') {
      await waitUnlessClosed(res, AI_FAKE_HANG_MS);
      if (!res.destroyed && !res.headersSent) answer(500, { error: 'Internal server error.' });
      return;
    }
    const location = url.searchParams.get('location') ?? '';
    if (failure === 'empty') {
      // Google showed no AI Overview (a plain results page) / AI Mode found nothing (SerpAPI's 200 with an error).
      if (engine === 'google_ai_mode') return answer(200, { error: SEARCH_ERROR_BODY });
      return answer(200, { search_metadata: { status: 'Success' }, search_parameters: { q: question, location, engine: 'google' }, organic_results: fakeOrganicResults(plainQuestion(question), location) });
    }
    const names = namesFor(script, sample);
    const values = {
      q: question,
      location,
      intro: answerText(question, []).trim(),
      names: names.map((title, i) => ({ title, snippet: blurbFor(title, i) })),
      sources: citedFor(script),
    };
    if (engine === 'google_ai_mode') return answer(200, serpAiModeAnswer(values));
    if (record.engine === 'google_ai_overview') return answer(200, serpAiOverviewApiAnswer(values));
    if (script.pageToken) {
      const pageToken = Buffer.from(JSON.stringify({ q: question, sample })).toString('base64url');
      return answer(200, serpAiOverviewTokenAnswer({ q: question, location, pageToken, origin }));
    }
    return answer(200, serpAiOverviewAnswer(values));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    if (req.method === 'GET' && url.pathname === '/__requests') return sendRecorded(res, url, 'requests', requests, 'q');
    if (req.method === 'POST' && url.pathname === '/__config') {
      Object.assign(config, JSON.parse((await readBody(req)) || '{}') as Partial<LocalSearchConfig>);
      return sendJson(res, 200, config);
    }
    // The Citation Tracker's fake directory web (tests/fakes/citation-web.ts): listing pages by host and path.
    if (req.method === 'GET' && url.pathname.startsWith('/dir/')) {
      const page = fakeCitationPage(url.pathname.slice('/dir/'.length));
      requests.push({ q: `page:${url.pathname.slice('/dir/'.length)}`, engine: 'page', location: '', apiKey: null, headers: plainHeaders(req) });
      if (!page) return sendJson(res, 404, { error: 'no such listing' });
      if (page.location) {
        res.writeHead(page.status ?? 302, { Location: page.location });
        res.end();
        return;
      }
      if (page.status) {
        res.writeHead(page.status, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Access denied</title><h1>403 Forbidden</h1>');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page.html ?? '');
      return;
    }
    if (req.method !== 'GET' || url.pathname !== '/search.json') {
      sendJson(res, 404, { error: `Unknown request URL: ${req.method} ${url.pathname}` });
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    const location = url.searchParams.get('location') ?? '';
    const apiKey = url.searchParams.get('api_key');
    const engine = url.searchParams.get('engine') ?? 'google';
    const ll = url.searchParams.get('ll') ?? undefined;
    requests.push({ q, engine, location, ...(ll ? { ll } : {}), apiKey, headers: plainHeaders(req) });

    // As the real SerpAPI: a missing or bad key is a 401 with an `error` field.
    if (!apiKey) return sendJson(res, 401, { error: 'Invalid API key.' });
    if (engine === 'google_ai_mode' || engine === 'google_ai_overview' || (engine === 'google' && q.includes('[aiv:'))) {
      const record = requests[requests.length - 1]!;
      if (engine === 'google_ai_overview') record.pageToken = url.searchParams.get('page_token') ?? '';
      record.noCache = url.searchParams.get('no_cache') ?? undefined;
      return aiAnswer(res, url, record, `http://${req.headers.host ?? '127.0.0.1'}`);
    }
    if (q.toLowerCase().includes('fail500')) return sendJson(res, 500, { error: 'Internal server error.' });
    if (q.toLowerCase().includes('errorbody')) return sendJson(res, 200, { error: SEARCH_ERROR_BODY });
    if (q.toLowerCase().includes('slow') && !(await waitUnlessClosed(res, SEARCH_SLOW_MS))) return;
    // The audit's calls: google_maps, and google with num=100 (the tools never ask for 100).
    if (engine === 'google_maps' || url.searchParams.get('num') === '100') {
      auditCalls++;
      const record = requests[requests.length - 1]!;
      if (config.latencyMs > 0 && !(await waitUnlessClosed(res, config.latencyMs))) return;
      if (q.toLowerCase().includes('busy429') || (url.searchParams.get('place_id') ?? '').includes('busy429') || (config.every429 > 0 && auditCalls % config.every429 === 0)) {
        record.status = 429;
        return sendJson(res, 429, { error: 'Your account has run out of searches.' });
      }
      if (engine === 'google_maps' && ll) {
        const tries = (llTries.get(`${q}|${ll}`) ?? 0) + 1;
        llTries.set(`${q}|${ll}`, tries);
        const fails = gridPointFails(q, ll, tries);
        record.status = fails ?? 200;
        if (fails) return sendJson(res, fails, { error: fails === 429 ? 'Your account has run out of searches.' : 'Internal server error.' });
        return sendJson(res, 200, fakeGridAnswer(q, ll, config));
      }
      record.status = 200;
      return sendJson(res, 200, engine === 'google_maps' ? fakeMapsAnswer(url.searchParams, config) : fakeOrganicAnswer(q, location, config));
    }
    // The Citation Tracker's `site:` searches. A business named "Flaky …" sees its first BuildZoom search fail (500).
    const citation = fakeCitationSearch(q);
    if (citation) {
      const record = requests[requests.length - 1]!;
      if (config.latencyMs > 0 && !(await waitUnlessClosed(res, config.latencyMs))) return;
      const tries = (llTries.get(`citation|${q}`) ?? 0) + 1;
      llTries.set(`citation|${q}`, tries);
      if (/flaky/i.test(q) && q.includes('site:buildzoom.com') && tries === 1) {
        record.status = 500;
        return sendJson(res, 500, { error: 'Internal server error.' });
      }
      record.status = 200;
      return sendJson(res, 200, { search_metadata: { status: 'Success' }, search_parameters: { engine: 'google', q }, ...citation });
    }
    if (q.toLowerCase().includes('empty')) {
      return sendJson(res, 200, { search_metadata: { status: 'Success' }, organic_results: [] });
    }
    sendJson(res, 200, {
      search_metadata: { status: 'Success' },
      search_parameters: { q, location, engine: 'google' },
      organic_results: q.toLowerCase().includes('xss') ? fakeHostileResults(q, location) : fakeOrganicResults(q, location),
    });
  }

  return serveFake(port, handle, {
    requests,
    config,
    reset() {
      requests.length = 0;
      aiSamples.clear();
    },
  });
}
