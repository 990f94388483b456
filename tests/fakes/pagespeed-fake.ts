// A loopback PageSpeed Insights v5 (GET /pagespeedonline/v5/runPagespeed?url=&strategy=mobile) answering Google's
// documented example (tests/fakes/fixtures/pagespeed) with the fake's figures: `loadingExperience.metrics` (CrUX field data: LARGEST_CONTENTFUL_PAINT_MS, INTERACTION_TO_NEXT_PAINT,
// CUMULATIVE_LAYOUT_SHIFT_SCORE ×100, each with a percentile and category) and `lighthouseResult` (categories.performance
// .score 0–1, audits with numericValue).
// The scenario is picked by the audited URL: 'lab' (no field data: lab figures only), 'psfail' (500, as when Lighthouse
// cannot load the page), 'ps429' (over quota); anything else has field data. POST /__config {latencyMs, every429}.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveFake, readBody, sendJson, waitUnlessClosed } from './http-helpers';
import { FAKE_FIELD, FAKE_LAB } from './audit-data';
import { fixture } from './fixtures';

export interface PageSpeedRequest {
  url: string;
  strategy: string | null;
  key: string | null;
  status?: number;
}

export interface PageSpeedFake {
  url: string;
  port: number;
  requests: PageSpeedRequest[];
  config: { latencyMs: number; every429: number };
  reset(): void;
  close(): Promise<void>;
}

/**
 * Google's documented answer (fixtures/pagespeed: a run with field and lab data, or lab only) for `pageUrl`, with the
 * figures the audit tests expect (FAKE_FIELD, FAKE_LAB) put in place of the example's.
 */
export function fakePageSpeedAnswer(pageUrl: string) {
  const lab = pageUrl.includes('lab');
  const answer = fixture('pagespeed', lab ? 'run-lab-only.json' : 'run-field-and-lab.json');
  answer.id = pageUrl;
  answer.analysisUTCTimestamp = new Date().toISOString();
  answer.loadingExperience.initial_url = pageUrl;
  const lighthouse = answer.lighthouseResult;
  for (const key of ['requestedUrl', 'finalUrl', 'mainDocumentUrl', 'finalDisplayedUrl']) lighthouse[key] = pageUrl;
  lighthouse.categories.performance.score = lab ? FAKE_LAB.performance : FAKE_FIELD.performance;
  if (lab) {
    lighthouse.audits['largest-contentful-paint'].numericValue = FAKE_LAB.lcpMs;
    lighthouse.audits['cumulative-layout-shift'].numericValue = FAKE_LAB.cls;
  } else {
    const field = answer.loadingExperience;
    field.id = pageUrl;
    field.metrics.LARGEST_CONTENTFUL_PAINT_MS.percentile = FAKE_FIELD.lcpMs;
    field.metrics.INTERACTION_TO_NEXT_PAINT.percentile = FAKE_FIELD.inpMs;
    field.metrics.CUMULATIVE_LAYOUT_SHIFT_SCORE.percentile = FAKE_FIELD.clsX100;
    delete answer.originLoadingExperience;
  }
  return answer;
}

export async function startPageSpeedFake(port = 0): Promise<PageSpeedFake> {
  const requests: PageSpeedRequest[] = [];
  const config = { latencyMs: 0, every429: 0 };
  let calls = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    if (req.method === 'GET' && url.pathname === '/__requests') return sendJson(res, 200, { requests });
    if (req.method === 'POST' && url.pathname === '/__config') {
      Object.assign(config, JSON.parse((await readBody(req)) || '{}'));
      return sendJson(res, 200, config);
    }
    if (req.method !== 'GET' || url.pathname !== '/pagespeedonline/v5/runPagespeed') {
      return sendJson(res, 404, { error: { code: 404, message: `Unknown request URL: ${url.pathname}` } });
    }
    const pageUrl = url.searchParams.get('url') ?? '';
    const record: PageSpeedRequest = { url: pageUrl, strategy: url.searchParams.get('strategy'), key: url.searchParams.get('key') };
    requests.push(record);
    calls++;
    if (config.latencyMs > 0 && !(await waitUnlessClosed(res, config.latencyMs))) return;
    record.status = 200;
    if (pageUrl.includes('ps429') || (config.every429 > 0 && calls % config.every429 === 0)) {
      record.status = 429;
      return sendJson(res, 429, { error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' } });
    }
    if (pageUrl.includes('psfail')) {
      return sendJson(res, 500, { error: { code: 500, message: 'Lighthouse returned error: FAILED_DOCUMENT_REQUEST.', status: 'INTERNAL' } });
    }
    if (!pageUrl) return sendJson(res, 400, { error: { code: 400, message: 'Invalid value for url', status: 'INVALID_ARGUMENT' } });
    sendJson(res, 200, fakePageSpeedAnswer(pageUrl));
  }

  return serveFake(port, handle, {
    requests,
    config,
    reset() {
      requests.length = 0;
    },
  });
}
