// The provider clients (worker/platform/providers/*.ts) read each service's documented example answers as the service sends
// them (tests/fakes/fixtures, sources in fixtures/SOURCES.md), the less common forms included: a single-place answer
// whose `type` is the list of categories, a place without a website, hours as an array, a PageSpeed run with lab data
// only, a Turnstile internal error, a Postmark suppression, an OpenAI stream ending in a usage chunk, Google's token
// answers and error statuses, ElevenLabs' audio and errors. The last block checks that the fakes answer these shapes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GmbPost } from '../../worker/platform/providers/rules/gmb-post';
import type { Env } from '../../worker/platform/env';
import { AiError, chatCompletion, chatCompletionStream } from '../../worker/platform/providers/ai';
import { classifyGoogleError, createLocalPost, exchangeCode, fetchDailyMetrics, GoogleError, googleConfig, listLocations, listSearchKeywords, refreshAccessToken } from '../../worker/platform/providers/google';
import { synthesizeSpeech } from '../../worker/platform/providers/tts';
import { searchMaps, searchOrganic } from '../../worker/platform/providers/local-search';
import { sendMail, type MailConfig } from '../../worker/platform/providers/mail';
import { readPageSpeed, runPageSpeed } from '../../worker/platform/providers/pagespeed';
import { verifyTurnstile } from '../../worker/platform/providers/turnstile';
import { fixture, fixtureBytes, fixtureText, type FixtureProvider } from './fixtures';
import { listen, readBody, type RunningServer } from './http-helpers';
import { FAKE_FIELD, FAKE_LAB } from './audit-data';
import { fakeMapsAnswer } from './local-search-fake';
import { startPageSpeedFake } from './pagespeed-fake';

/** One loopback server answering the fixture the test names (status, provider, file, content type). */
type Answer = { status: number; provider: FixtureProvider; file: string; type?: string };
let answer: Answer;
/** Answers by path, for a client that makes several calls (the first whose path starts with the key). */
let byPath: [string, Answer][] = [];
const seen: { path: string; body: string }[] = [];
let server: RunningServer;

beforeAll(async () => {
  server = await listen(0, async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    seen.push({ path, body: await readBody(req) });
    const chosen = byPath.find(([prefix]) => path.startsWith(prefix))?.[1] ?? answer;
    res.writeHead(chosen.status, { 'Content-Type': chosen.type ?? 'application/json' });
    res.end(Buffer.from(fixtureBytes(chosen.provider, chosen.file)));
  });
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
  byPath = [];
});

const env = (vars: Partial<Env>) => vars as Env;
const serve = (provider: FixtureProvider, file: string, status = 200, type?: string) => {
  answer = { status, provider, file, type };
};

describe('SerpAPI (google_maps, google)', () => {
  const serp = () => env({ SERPAPI_KEY: 'k', SERPAPI_BASE_URL: server.origin });

  it('reads a map pack: categories from types, hours from operating_hours, a listing without a website', async () => {
    serve('serpapi', 'google-maps-search.json');
    const got = await searchMaps(serp(), { q: 'plumber', ll: '@30.2672,-97.7431,14z' }, 2000);
    expect(got).toMatchObject({ ok: true });
    if (!got.ok) return;
    expect(got.places).toHaveLength(3);
    expect(got.places[0]).toEqual({
      position: 1,
      placeId: 'ChIJ0fz8P0a1RIYRYz0r3Wq6m0E',
      name: 'Radiant Plumbing & Air Conditioning',
      address: '4601 S Congress Ave, Austin, TX 78745',
      phone: '(512) 263-9988',
      website: 'https://www.radiantplumbing.com/',
      categories: ['Plumber', 'Air conditioning contractor', 'Water heater installation service'],
      hoursSet: true,
      rating: 4.9,
      reviewCount: 6512,
      latitude: 30.2241,
      longitude: -97.7692,
    });
    // Only `type`, no `types`, no hours: one category, hours not said.
    expect(got.places[2]).toMatchObject({ website: null, categories: ['Plumber'], hoursSet: null });
  });

  it("reads a single-place answer whose `type` is the list of categories and whose hours are an array", async () => {
    serve('serpapi', 'google-maps-place.json');
    const got = await searchMaps(serp(), { q: 'x', placeId: 'ChIJ0fz8P0a1RIYRYz0r3Wq6m0E' }, 2000);
    expect(seen[0]!.path).toContain('type=place');
    expect(got).toMatchObject({
      ok: true,
      places: [
        {
          position: 1,
          name: 'Radiant Plumbing & Air Conditioning',
          categories: ['Plumber', 'Air conditioning contractor', 'Water heater installation service'],
          hoursSet: true,
          website: 'https://www.radiantplumbing.com/',
        },
      ],
    });
  });

  it('reads a place answer without a website and with an empty hours array', async () => {
    serve('serpapi', 'google-maps-place-no-website.json');
    const got = await searchMaps(serp(), { q: 'Clear Choice Drain Service', location: 'Austin, TX' }, 2000);
    expect(got).toMatchObject({ ok: true, places: [{ name: 'Clear Choice Drain Service', website: null, categories: ['Plumber'], hoursSet: false, phone: '(512) 555-0188' }] });
  });

  it('reads organic results with their positions', async () => {
    serve('serpapi', 'google-organic.json');
    const got = await searchOrganic(serp(), { q: 'plumber', location: 'Austin, TX' }, 2000);
    expect(got).toEqual({ ok: true, links: [{ position: 1, link: 'https://www.radiantplumbing.com/' }, { position: 2, link: 'https://www.yelp.com/search?cflt=plumbing&find_loc=Austin%2C+TX' }] });
  });

  it("the search fake's single-place answer has the documented form, and the client reads its categories", () => {
    const documented = fixture('serpapi', 'google-maps-place.json').place_results;
    const answer = fakeMapsAnswer(new URLSearchParams({ place_id: 'ChIJfake-x' }), { siteUrl: null, latencyMs: 0, every429: 0 });
    const place = ('place_results' in answer ? answer.place_results : {}) as Record<string, unknown>;
    expect(Array.isArray(place.type)).toBe(Array.isArray(documented.type));
    expect('types' in place).toBe('types' in documented);
    expect(Array.isArray(place.hours)).toBe(true);
  });
});

describe('PageSpeed Insights v5', () => {
  it('reads field data (CrUX) first: LCP, INP and CLS ×100, with the lab score', () => {
    expect(readPageSpeed(fixture('pagespeed', 'run-field-and-lab.json'))).toEqual({ status: 'ok', performanceScore: 67, lcpMs: 2879, inpMs: 183, cls: 0.05, source: 'field' });
  });

  it('reads a lab-only run (no field data for a small site): no INP', async () => {
    serve('pagespeed', 'run-lab-only.json');
    const got = await runPageSpeed(env({ PAGESPEED_BASE_URL: server.origin }), 'https://new-roofing-company.example/', 2000);
    expect(got).toEqual({ ok: true, value: { status: 'ok', performanceScore: 83, lcpMs: 2310.4, inpMs: null, cls: 0.087, source: 'lab' } });
  });
});

describe("the PageSpeed fake (Google's examples with the fake's figures)", () => {
  it('answers field data, and lab only for a lab URL, as the client reads them', async () => {
    const fake = await startPageSpeedFake();
    try {
      const psEnv = env({ PAGESPEED_BASE_URL: fake.url });
      expect(await runPageSpeed(psEnv, 'https://joes.example/', 2000)).toEqual({
        ok: true,
        value: { status: 'ok', performanceScore: Math.round(FAKE_FIELD.performance * 100), lcpMs: FAKE_FIELD.lcpMs, inpMs: FAKE_FIELD.inpMs, cls: FAKE_FIELD.clsX100 / 100, source: 'field' },
      });
      expect(await runPageSpeed(psEnv, 'https://lab.joes.example/', 2000)).toEqual({
        ok: true,
        value: { status: 'ok', performanceScore: Math.round(FAKE_LAB.performance * 100), lcpMs: FAKE_LAB.lcpMs, inpMs: null, cls: FAKE_LAB.cls, source: 'lab' },
      });
    } finally {
      await fake.close();
    }
  });
});

describe('Turnstile siteverify', () => {
  const turnstile = () => env({ TURNSTILE_BASE_URL: server.origin, TURNSTILE_SECRET_KEY: 's', TURNSTILE_SITE_KEY: 'k' });

  it('passes the documented success', async () => {
    serve('turnstile', 'siteverify-success.json');
    expect(await verifyTurnstile(turnstile(), 'token', '127.0.0.1')).toEqual({ ok: true, hostname: 'example.com' });
    expect(new URLSearchParams(seen[0]!.body).get('remoteip')).toBe('127.0.0.1');
  });

  it('fails a refused token, and calls an internal error unavailable', async () => {
    serve('turnstile', 'siteverify-failure.json');
    expect(await verifyTurnstile(turnstile(), 'token', null)).toEqual({ ok: false, unavailable: false, reason: 'invalid-input-response' });
    serve('turnstile', 'siteverify-internal-error.json');
    expect(await verifyTurnstile(turnstile(), 'token', null)).toMatchObject({ ok: false, unavailable: true });
  });
});

describe('mail (Resend, Postmark)', () => {
  const config = (provider: 'resend' | 'postmark'): MailConfig => ({ provider, apiKey: 'k', from: 'P <p@porchlight.test>', baseUrl: server.origin, timeoutMs: 2000 });
  const mail = { to: 'owner@example.test', subject: 'S', text: 'T', html: '<p>T</p>', idempotencyKey: 'key-1' };

  it("reads Resend's id and its validation error", async () => {
    serve('resend', 'send-email.json');
    expect(await sendMail(config('resend'), mail)).toEqual({ ok: true, providerMessageId: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' });
    serve('resend', 'error-validation.json', 422);
    expect(await sendMail(config('resend'), mail)).toMatchObject({ ok: false, permanent: true, reason: expect.stringContaining('validation_error') });
  });

  it("reads Postmark's MessageID and its inactive-recipient refusal", async () => {
    serve('postmark', 'email.json');
    expect(await sendMail(config('postmark'), mail)).toEqual({ ok: true, providerMessageId: '0a129aee-e1cd-480d-b08d-4f48548ff48d' });
    serve('postmark', 'error-inactive-recipient.json', 422);
    expect(await sendMail(config('postmark'), mail)).toMatchObject({ ok: false, permanent: true, reason: expect.stringContaining('ErrorCode 406') });
  });
});

describe('OpenAI chat completions (through the openai SDK)', () => {
  const ai = () => env({ AI_API_KEY: 'k', AI_BASE_URL: server.origin });
  const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }], maxTokens: 50, temperature: 0 };

  it('reads the content, the model and the usage of a completion', async () => {
    serve('openai', 'chat-completion.json');
    expect(await chatCompletion(ai(), request)).toEqual({
      content: 'The image shows a wooden boardwalk path running through a lush green field or meadow.',
      model: 'gpt-4o-2024-08-06',
      usage: { input_tokens: 1117, output_tokens: 46, total_tokens: 1163, estimated: false },
    });
  });

  it('streams the deltas and reads the usage from the last chunk (no choices in it)', async () => {
    serve('openai', 'chat-completion-stream.txt', 200, 'text/event-stream');
    const stream = chatCompletionStream(ai(), request);
    const deltas: string[] = [];
    let next = await stream.next();
    while (!next.done) {
      deltas.push(next.value);
      next = await stream.next();
    }
    expect(deltas).toEqual(['Hello', '!']);
    expect(next.value).toEqual({ content: 'Hello!', model: 'gpt-4o-mini', usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11, estimated: false } });
  });

  it('reads the documented error answer: a 429 is rate_limited, a 500 an http error with its status', async () => {
    serve('openai', 'error.json', 429);
    const limited = await chatCompletion(ai(), request).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(AiError);
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429 });
    serve('openai', 'error.json', 500);
    expect(await chatCompletion(ai(), request).catch((e: unknown) => e)).toMatchObject({ kind: 'http', status: 500 });
  });
});

describe('Google Business Profile (Account Management v1, Business Information v1, v4 localPosts)', () => {
  const google = () => googleConfig(env({ GOOGLE_OAUTH_CLIENT_ID: 'id', GOOGLE_OAUTH_CLIENT_SECRET: 'secret', GBP_API_BASE_URL: server.origin }))!;
  const at = (file: string): Answer => ({ status: 200, provider: 'google', file });

  it("lists each account's locations: a storefront with its address, a service-area business with none", async () => {
    byPath = [
      ['/v1/accounts?', at('accounts-list.json')],
      ['/v1/accounts/106214578347021398765/locations', at('locations-list.json')],
    ];
    expect(await listLocations(google(), 'token')).toEqual([
      {
        name: 'accounts/106214578347021398765/locations/5732401294658201234',
        title: "Joe's Plumbing",
        address: '1200 S Lamar Blvd, Suite 110, Austin, TX',
        canOperateLocalPost: true,
        placeId: 'ChIJfake-joes-plumbing',
      },
      { name: 'accounts/106214578347021398765/locations/5732401294658209999', title: "Joe's Plumbing – Round Rock", address: '', canOperateLocalPost: false, placeId: null },
    ]);
    expect(new URL(seen[1]!.path, server.origin).searchParams.get('readMask')).toBe('name,title,storefrontAddress,metadata');
  });

  it("reads a created local post's name, state and search URL", async () => {
    serve('google', 'local-post-created.json');
    const post = GmbPost.parse({ type: 'STANDARD', summary: 'Spring drain cleaning: book this week.', callToAction: { actionType: 'CALL' } });
    const got = await createLocalPost(google(), 'token', 'accounts/106214578347021398765/locations/5732401294658201234', post);
    expect(got).toMatchObject({
      name: 'accounts/106214578347021398765/locations/5732401294658201234/localPosts/1784330016785432101',
      state: 'PROCESSING',
      searchUrl: expect.stringContaining('lpsid=1784330016785432101'),
    });
    expect(seen[0]!.path).toBe('/v4/accounts/106214578347021398765/locations/5732401294658201234/localPosts');
  });

  it("reads the Performance API's daily series (a zero day has no value) and the search terms (a threshold instead of a count)", async () => {
    const perf = () => googleConfig(env({ GOOGLE_OAUTH_CLIENT_ID: 'id', GOOGLE_OAUTH_CLIENT_SECRET: 'secret', GBP_PERFORMANCE_BASE_URL: server.origin }))!;
    byPath = [['/v1/locations/12345:fetchMultiDailyMetricsTimeSeries', at('performance-daily-metrics.json')]];
    const range = { start: { year: 2022, month: 1, day: 1 }, end: { year: 2022, month: 1, day: 3 } };
    const series = await fetchDailyMetrics(perf(), 'token', 'accounts/1/locations/12345', ['CALL_CLICKS', 'WEBSITE_CLICKS', 'BUSINESS_CONVERSATIONS'], range);
    expect(Object.fromEntries(series.get('CALL_CLICKS')!)).toEqual({ '2022-01-01': 3, '2022-01-02': 0, '2022-01-03': 5 });
    expect(Object.fromEntries(series.get('WEBSITE_CLICKS')!)).toEqual({ '2022-01-01': 12, '2022-01-02': 7, '2022-01-03': 0 });
    expect(series.has('BUSINESS_CONVERSATIONS')).toBe(false);
    const sent = new URL(seen[0]!.path, 'http://x');
    expect(sent.searchParams.getAll('dailyMetrics')).toEqual(['CALL_CLICKS', 'WEBSITE_CLICKS', 'BUSINESS_CONVERSATIONS']);
    expect(sent.searchParams.get('dailyRange.end_date.day')).toBe('3');
    byPath = [['/v1/locations/12345/searchkeywords/impressions/monthly', at('performance-search-keywords.json')]];
    expect(await listSearchKeywords(perf(), 'token', 'locations/12345', { start: { year: 2022, month: 1 }, end: { year: 2022, month: 3 } }, 1)).toEqual([
      { keyword: 'roofer near me', impressions: 412, threshold: null },
      { keyword: 'roof repair austin', impressions: 96, threshold: null },
      { keyword: 'emergency roof tarp', impressions: null, threshold: 15 },
    ]);
  });
});

describe('Google Business Profile fixtures use only documented fields', () => {
  // The fields google-api-nodejs-client's generated "Example response" lists for each method
  // (src/apis/mybusinessaccountmanagement/v1.ts, src/apis/mybusinessbusinessinformation/v1.ts).
  const ACCOUNT = ['accountName', 'accountNumber', 'name', 'organizationInfo', 'permissionLevel', 'primaryOwner', 'role', 'type', 'verificationState', 'vettedState'];
  const LOCATION = ['adWordsLocationExtensions', 'categories', 'labels', 'languageCode', 'latlng', 'metadata', 'moreHours', 'name', 'openInfo', 'phoneNumbers', 'profile', 'regularHours', 'relationshipData', 'serviceArea', 'serviceItems', 'specialHours', 'storeCode', 'storefrontAddress', 'title', 'websiteUri'];

  it('accounts.list and accounts.locations.list', () => {
    const accounts = fixture('google', 'accounts-list.json');
    expect(['accounts', 'nextPageToken']).toEqual(expect.arrayContaining(Object.keys(accounts)));
    for (const account of accounts.accounts) expect(ACCOUNT).toEqual(expect.arrayContaining(Object.keys(account)));
    const locations = fixture('google', 'locations-list.json');
    expect(['locations', 'nextPageToken', 'totalSize']).toEqual(expect.arrayContaining(Object.keys(locations)));
    for (const location of locations.locations) expect(LOCATION).toEqual(expect.arrayContaining(Object.keys(location)));
  });
});

describe('Google OAuth (token endpoint) and error statuses', () => {
  const google = () => googleConfig(env({ GOOGLE_OAUTH_CLIENT_ID: 'id', GOOGLE_OAUTH_CLIENT_SECRET: 'secret', GOOGLE_OAUTH_BASE_URL: server.origin, GBP_API_BASE_URL: server.origin }))!;

  it('reads a code exchange (with a refresh token) and a refresh (without one)', async () => {
    serve('google', 'oauth-token.json');
    const got = await exchangeCode(google(), { code: '4/x', codeVerifier: 'v'.repeat(43), redirectUri: 'http://127.0.0.1:1/cb' });
    expect(got).toMatchObject({ accessToken: 'ya29.a0AfB_byC3x8Plumbers-AustinExampleToken', refreshToken: '1//04dExampleRefreshTokenForJoesPlumbing', scope: 'https://www.googleapis.com/auth/business.manage' });
    expect(Date.parse(got.expiresAt) - Date.now()).toBeGreaterThan(3500 * 1000);
    expect(new URLSearchParams(seen[0]!.body).get('grant_type')).toBe('authorization_code');
    serve('google', 'oauth-token-refresh.json');
    expect(await refreshAccessToken(google(), '1//04d')).toMatchObject({ accessToken: 'ya29.a0AfB_byD9RefreshedExampleToken', refreshToken: null });
  });

  it('a refused grant is token_refused; a Status error is sorted by its code and details', async () => {
    serve('google', 'oauth-error.json', 400);
    const refused = await refreshAccessToken(google(), 'gone').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GoogleError);
    expect(refused).toMatchObject({ kind: 'token_refused', message: 'invalid_grant: Token has been expired or revoked.' });
    expect(classifyGoogleError(404, fixture('google', 'error-status.json'))).toMatchObject({ kind: 'refused', message: 'Requested entity was not found.' });
    expect(classifyGoogleError(403, fixture('google', 'error-service-disabled.json')).kind).toBe('api_not_enabled');
    expect(classifyGoogleError(429, fixture('google', 'error-quota.json')).kind).toBe('not_approved');
  });
});

describe('ElevenLabs text to speech', () => {
  const tts = () => env({ ELEVENLABS_API_KEY: 'k', ELEVENLABS_BASE_URL: server.origin });

  it('passes the audio on as it comes, and fails on the documented 422 and a refused key', async () => {
    serve('elevenlabs', 'text-to-speech.mp3', 200, 'audio/mpeg');
    const got = await synthesizeSpeech(tts(), 'Hello', 'voice-1');
    expect(got).toMatchObject({ ok: true, contentType: 'audio/mpeg' });
    if (!got.ok) return;
    const bytes = new Uint8Array(await new Response(got.audio).arrayBuffer());
    expect(bytes).toEqual(fixtureBytes('elevenlabs', 'text-to-speech.mp3'));
    expect(seen[0]!.path).toBe('/v1/text-to-speech/voice-1');
    serve('elevenlabs', 'error-validation.json', 422);
    expect(await synthesizeSpeech(tts(), 'Hello', 'voice-1')).toEqual({ ok: false });
    serve('elevenlabs', 'error-unauthorized.json', 401);
    expect(await synthesizeSpeech(tts(), 'Hello', 'voice-1')).toEqual({ ok: false });
  });
});

/** The object's keys, nested, as sorted paths: two answers of one shape have the same list. */
function shape(node: unknown, at = ''): string[] {
  if (Array.isArray(node)) return node.length ? shape(node[0], `${at}[]`) : [`${at}[]`];
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => [`${at}.${k}`, ...shape(v, `${at}.${k}`)]).sort();
  return [];
}

describe("the fakes answer the documented shapes (every answer is a fixture with the fake's values)", () => {
  it('OpenAI: a completion, each stream chunk and an error have the keys of the documented ones', async () => {
    const { startOpenAiFake } = await import('./openai-fake');
    const fake = await startOpenAiFake();
    try {
      const post = (body: object, auth = true) =>
        fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: 'Bearer k' } : {}) }, body: JSON.stringify(body) });
      const messages = [{ role: 'user', content: 'Hi' }];
      expect(shape(await (await post({ model: 'm', messages })).json())).toEqual(shape(fixture('openai', 'chat-completion.json')));
      const sse = await (await post({ model: 'm', messages, stream: true, stream_options: { include_usage: true } })).text();
      const documented = fixtureText('openai', 'chat-completion-stream.txt');
      const chunks = (text: string) => text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => shape(JSON.parse(l.slice(6))));
      const want = chunks(documented);
      const got = chunks(sse);
      expect(got[0]).toEqual(want[0]);
      expect(got.slice(1, -2).every((c) => JSON.stringify(c) === JSON.stringify(want[1]))).toBe(true);
      expect(got.slice(-2)).toEqual(want.slice(-2));
      expect(sse.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(shape(await (await post({ model: 'm', messages }, false)).json())).toEqual(shape(fixture('openai', 'error.json')));
    } finally {
      await fake.close();
    }
  });

  it('Google: tokens, accounts, locations (as the readMask asks), a post and an error have the documented keys', async () => {
    const { startGoogleFake, FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET } = await import('./google-fake');
    const fake = await startGoogleFake();
    try {
      const { createHash, randomBytes } = await import('node:crypto');
      const verifier = randomBytes(32).toString('base64url');
      const auth = new URL(`${fake.url}/o/oauth2/v2/auth`);
      auth.search = new URLSearchParams({ client_id: FAKE_GOOGLE_CLIENT_ID, redirect_uri: 'http://127.0.0.1:1/cb', response_type: 'code', scope: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' }).toString();
      const href = /data-user="owner" href="([^"]+)"/.exec(await (await fetch(auth)).text())![1]!.replace(/&amp;/g, '&');
      const code = new URL(href).searchParams.get('code')!;
      const token = async (fields: Record<string, string>) =>
        (await (await fetch(`${fake.url}/token`, { method: 'POST', body: new URLSearchParams({ client_id: FAKE_GOOGLE_CLIENT_ID, client_secret: FAKE_GOOGLE_CLIENT_SECRET, ...fields }) })).json()) as Record<string, any>;
      const exchanged = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:1/cb' });
      expect(shape(exchanged)).toEqual(shape(fixture('google', 'oauth-token.json')));
      expect(shape(await token({ grant_type: 'refresh_token', refresh_token: exchanged.refresh_token }))).toEqual(shape(fixture('google', 'oauth-token-refresh.json')));
      expect(shape(await token({ grant_type: 'refresh_token', refresh_token: 'unknown' }))).toEqual(shape(fixture('google', 'oauth-error.json')));
      const get = async (path: string) => (await (await fetch(`${fake.url}${path}`, { headers: { Authorization: `Bearer ${exchanged.access_token}` } })).json()) as Record<string, any>;
      expect(shape(await get('/v1/accounts'))).toEqual(shape(fixture('google', 'accounts-list.json')));
      const documentedLocations = fixture('google', 'locations-list.json');
      const listed = await get('/v1/accounts/1001/locations?readMask=name,title,storefrontAddress,metadata');
      expect(shape(listed)).toEqual(shape({ ...documentedLocations, locations: [documentedLocations.locations[0]] }));
      const titles = await get('/v1/accounts/1001/locations?readMask=title');
      expect(Object.keys(titles.locations[0]).sort()).toEqual(['name', 'title']);
      const created = await (
        await fetch(`${fake.url}/v4/accounts/1001/locations/2001/localPosts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${exchanged.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ languageCode: 'en', summary: 'Spring drain cleaning: book this week.', callToAction: { actionType: 'CALL' }, topicType: 'STANDARD' }),
        })
      ).json();
      expect(shape(created)).toEqual(shape(fixture('google', 'local-post-created.json')));
      expect(shape(await get('/v1/accounts/9999/locations?readMask=name'))).toEqual(shape(fixture('google', 'error-status.json')));
    } finally {
      await fake.close();
    }
  });

  it('ElevenLabs: the audio is the fixture, a missing text the documented 422, a missing key the refusal', async () => {
    const { startTtsFake } = await import('./tts-fake');
    const fake = await startTtsFake();
    try {
      const say = (body: object, key = true) =>
        fetch(`${fake.url}/v1/text-to-speech/voice-1`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'xi-api-key': 'k' } : {}) }, body: JSON.stringify(body) });
      const audio = await say({ text: 'Hello' });
      expect(audio.headers.get('content-type')).toBe('audio/mpeg');
      expect(new Uint8Array(await audio.arrayBuffer())).toEqual(fixtureBytes('elevenlabs', 'text-to-speech.mp3'));
      const invalid = await say({ text: '' });
      expect(invalid.status).toBe(422);
      expect(shape(await invalid.json())).toEqual(shape(fixture('elevenlabs', 'error-validation.json')));
      expect(shape(await (await say({ text: 'Hello' }, false)).json())).toEqual(shape(fixture('elevenlabs', 'error-unauthorized.json')));
    } finally {
      await fake.close();
    }
  });
});
