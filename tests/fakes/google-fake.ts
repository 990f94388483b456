// A loopback Google: OAuth 2.0 (consent page, token with PKCE S256, refresh, revoke) and the Business Profile APIs
// (accounts, locations with canOperateLocalPost, v4 localPosts PROCESSING → LIVE or REJECTED, a location's guarded fields
// and Voice of Merchant state), answering Google's documented examples (fixtures/google, through documented-answers.ts)
// with the fake's values.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GUARDED_FIELDS, type GbpLocationFields } from '../../worker/platform/providers/rules/gbp-location';
import {
  googleAccountsList,
  googleLocation,
  googleLocationFields,
  googleUpdatedLocation,
  googleVoiceOfMerchant,
  type VoiceOfMerchantValue,
  googleLocalPost,
  googleLocationsList,
  googleOAuthError,
  googleQuotaZero,
  googleRefreshAnswer,
  googleServiceDisabled,
  googleStatusError,
  googleTokenAnswer,
  googleDailyMetrics,
  googleSearchKeywords,
  type PerformanceDatedValue,
} from './documented-answers';
import { fixture } from './fixtures';
import { readBody, sendJson, serveFake, waitUnlessClosed } from './http-helpers';

/** The only OAuth client the fake knows (GOOGLE_OAUTH_CLIENT_ID / GOOGLE_OAUTH_CLIENT_SECRET in tests). */
export const FAKE_GOOGLE_CLIENT_ID = 'porchlight-test.apps.googleusercontent.com';
export const FAKE_GOOGLE_CLIENT_SECRET = 'fake-google-client-secret';
export const FAKE_GBP_ACCOUNT = 'accounts/1001';
const SCOPE = 'https://www.googleapis.com/auth/business.manage';

/**
 * The Google users the consent page offers; each token carries its user's behaviour:
 * - `owner`: a Business Profile account with three locations, two of which can post;
 * - `api-disabled`: the Cloud project has not enabled the Business Profile APIs (403 SERVICE_DISABLED);
 * - `not-approved`: enabled but not approved, so the quota is 0 (429 RESOURCE_EXHAUSTED).
 */
export const FAKE_GOOGLE_USERS = ['owner', 'api-disabled', 'not-approved'] as const;
export type FakeGoogleUser = (typeof FAKE_GOOGLE_USERS)[number];

export const FAKE_GBP_LOCATIONS = [
  { name: 'locations/2001', title: 'Ridge Roofing — Austin', locality: 'Austin', canOperateLocalPost: true },
  { name: 'locations/2002', title: 'Ridge Roofing — Round Rock', locality: 'Round Rock', canOperateLocalPost: true },
  { name: 'locations/2003', title: 'Ridge Roofing — Warehouse (unverified)', locality: 'Pflugerville', canOperateLocalPost: false },
];

/** A post whose summary holds one of these markers behaves so (the text is the test's way to steer Google). */
export const GBP_MARKERS = {
  /** Accepted, then REJECTED on review. */
  reject: '[gbp:reject]',
  /** Refused on create with a validation error naming the field. */
  invalid: '[gbp:invalid]',
  /** The first create answers 503, later ones succeed. */
  flaky: '[gbp:flaky]',
  /** Every create answers 500. */
  down: '[gbp:500]',
  /** A review reply holding this is refused (400 with a ValidationError on `comment`). */
  refuseReply: '[gbp:refuse-reply]',
  /** A review reply holding this answers 503 once, then succeeds. */
  flakyReply: '[gbp:flaky-reply]',
} as const;

/**
 * The Performance API's daily series, the same for every location: a known value per metric and day (0, so no `value`,
 * on every 7th day of a month). `BUSINESS_CONVERSATIONS` is never answered (a metric Google leaves out).
 */
export const FAKE_PERFORMANCE_BASE: Record<string, number> = {
  CALL_CLICKS: 2,
  WEBSITE_CLICKS: 5,
  BUSINESS_DIRECTION_REQUESTS: 1,
  BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 20,
  BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 30,
  BUSINESS_IMPRESSIONS_MOBILE_MAPS: 40,
  BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 50,
  BUSINESS_BOOKINGS: 0,
};
export const FAKE_PERFORMANCE_MISSING = 'BUSINESS_CONVERSATIONS';
import { FAKE_FIGURES_DOWN_MONTH, FAKE_KEYWORDS_DOWN_MONTH } from './google-data';
export { FAKE_FIGURES_DOWN_MONTH, FAKE_KEYWORDS_DOWN_MONTH };
export function fakePerformanceValue(metric: string, date: { year: number; month: number; day: number }): number {
  const base = FAKE_PERFORMANCE_BASE[metric] ?? 0;
  return date.day % 7 === 0 || base === 0 ? 0 : base + (date.day % 3) + (date.month % 2);
}
/** The search terms that found a profile, a month: two pages; the last one is under Google's threshold. */
export const FAKE_SEARCH_KEYWORDS = [
  { keyword: 'roofer near me', value: 412 },
  { keyword: 'roof repair austin', value: 96 },
  { keyword: 'ridge roofing', value: 58 },
  { keyword: 'metal roof installers', value: 21 },
  { keyword: 'emergency roof tarp', threshold: 15 },
];

/** A review as the fake keeps it: Google's Review resource (fixtures/google/reviews-list.json). */
export type FakeReview = {
  name: string;
  reviewId: string;
  reviewer: { displayName: string; profilePhotoUrl?: string; isAnonymous: boolean };
  starRating: 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
};

/** The documented list answer's reviews (a fresh copy), the Austin location's reviews when the fake starts or resets. */
export function fixtureReviews(): FakeReview[] {
  return fixture<{ reviews: FakeReview[] }>('google', 'reviews-list.json').reviews;
}

const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
/** `count` made-up reviews of a location, newest first (the bench's 1,000). */
export function generatedReviews(location: string, count: number, now = Date.now()): FakeReview[] {
  const template = fixtureReviews()[0]!;
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(now - (i + 1) * 3_600_000 * 7).toISOString();
    const reviewId = `Gen${i.toString(36)}x${(now % 100000).toString(36)}`;
    return { ...template, name: `${location}/reviews/${reviewId}`, reviewId, reviewer: { displayName: `Customer ${i + 1}`, isAnonymous: false }, starRating: STARS[(i * 7) % 5]!, comment: i % 3 === 0 ? undefined : `Review ${i + 1}: the roof repair went well.`, createTime: at, updateTime: at };
  });
}

export interface FakeLocalPost {
  name: string;
  summary: string;
  topicType: string;
  state: 'PROCESSING' | 'LIVE' | 'REJECTED';
  body: Record<string, unknown>;
  gets: number;
  requestId: string | null;
}

/** What `locations.getVoiceOfMerchantState` says of a location (see googleVoiceOfMerchant). */
export type FakeVoiceOfMerchant = VoiceOfMerchantValue;

/** A location as the guard (issue 41) sees it at Google, by `locations/{id}`; any id is created on first use. */
export interface FakeGuardLocation {
  /** The merchant's values (`locations.get`): the documented location's guarded fields, titled "Ridge Roofing". */
  owner: GbpLocationFields;
  /** Google's values where they differ, laid over the owner's (objects merged, arrays replaced) by getGoogleUpdated. */
  google: GbpLocationFields;
  /** The fields Google changed (FieldMask paths); empty by default. */
  diffMask: string[];
  /** The merchant's edits not yet live; empty by default. */
  pendingMask: string[];
  voiceOfMerchant: FakeVoiceOfMerchant;
  /** getGoogleUpdated answers 503 this many times, then serves. */
  failGoogleUpdated: number;
}
/** A change to a guard location: `owner` and `google` merge by top-level field (null removes one), the rest replace. */
export type FakeGuardUpdate = Partial<Omit<FakeGuardLocation, 'owner' | 'google'>> & { owner?: Record<string, unknown>; google?: Record<string, unknown> };
/** A `locations.patch` the fake took. */
export interface FakeGuardPatch {
  /** `locations/{id}` */
  location: string;
  updateMask: string[];
  body: Record<string, unknown>;
  at: string;
}

/** `locations/{id}` from an id, `locations/{id}` or `accounts/{a}/locations/{id}`. */
export function guardLocationKey(id: string): string {
  const bare = /locations\/([^/]+)$/.exec(id)?.[1] ?? id;
  return `locations/${bare}`;
}

export interface GoogleRequest {
  method: string;
  path: string;
  status: number;
  grantType?: string;
  /** The authorization code a POST /token presented: tests that run beside others count their own exchanges. */
  code?: string;
}

export interface GoogleFake {
  url: string;
  port: number;
  posts: FakeLocalPost[];
  /** Reviews by location name (accounts/…/locations/…), newest first. */
  reviews: Map<string, FakeReview[]>;
  requests: GoogleRequest[];
  /** The guard's state of a location (created on first use); the same object the fake answers from. */
  guardLocation(id: string): FakeGuardLocation;
  /** Merges into a location's guard state (as POST /__gbp/locations/{id} does) and gives it back. */
  setGuardLocation(id: string, update: FakeGuardUpdate): FakeGuardLocation;
  /** The patches a location took, oldest first (as GET /__gbp/patches?location= gives them). */
  guardPatches(id: string): FakeGuardPatch[];
  /** The wait before every answer but the test hooks' (`/__…`): 0 unless set (the option, or POST /__config {latencyMs}). */
  config: GoogleFakeConfig;
  reset(): void;
  close(): Promise<void>;
}

export interface GoogleFakeConfig {
  /** Added before every answer (OAuth and the APIs); the test hooks answer at once. The benchmark's Google answers in 300 ms. */
  latencyMs: number;
}

interface Grant {
  user: FakeGoogleUser;
  refreshToken: string;
  revoked: boolean;
}

const b64url = (buf: Buffer) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const API_TITLES: Record<string, string> = {
  'mybusinessaccountmanagement.googleapis.com': 'My Business Account Management API',
  'mybusinessbusinessinformation.googleapis.com': 'My Business Business Information API',
  'mybusiness.googleapis.com': 'Google My Business API',
  'mybusinessverifications.googleapis.com': 'My Business Verifications API',
};

/** Google's error for a project without the API enabled (google.rpc.Status with ErrorInfo SERVICE_DISABLED). */
const serviceDisabled = (service: string) => googleServiceDisabled(service, API_TITLES[service] ?? service);

/** Google's answer while the project's Business Profile API access is not approved (quota 0 requests per minute). */
const quotaZero = googleQuotaZero;

const UNAUTHENTICATED = googleStatusError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.', 'UNAUTHENTICATED');
const NOT_FOUND = () => googleStatusError(404, 'Requested entity was not found.', 'NOT_FOUND');
const UNAVAILABLE = () => googleStatusError(503, 'The service is currently unavailable.', 'UNAVAILABLE');
const invalidArgument = (field: string, description: string) =>
  googleStatusError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description }] }]);

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => !!v && typeof v === 'object' && !Array.isArray(v);
/** The FieldMask's paths ("a,b.c"). */
const maskPaths = (mask: string | null) => (mask ?? '').split(',').map((p) => p.trim()).filter(Boolean);
const getPath = (from: Fields, path: string): unknown => path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), from);
/** Sets a dotted path (its parents made as needed); undefined removes it. */
function setPath(into: Fields, path: string, value: unknown) {
  const keys = path.split('.');
  let node = into;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) {
      if (value === undefined) return;
      node[key] = {};
    }
    node = node[key] as Fields;
  }
  if (value === undefined) delete node[keys.at(-1)!];
  else node[keys.at(-1)!] = structuredClone(value);
}
/** `over` laid on `base`: objects merged key by key, anything else (arrays included) replaced. */
function overlay(base: Fields, over: Fields): Fields {
  const out: Fields = structuredClone(base);
  for (const [key, value] of Object.entries(over)) out[key] = isObject(value) && isObject(out[key]) ? overlay(out[key] as Fields, value) : structuredClone(value);
  return out;
}

/**
 * Paths (one origin for what Google spreads over hosts; GOOGLE_OAUTH_BASE_URL and GBP_API_BASE_URL both point here):
 * GET /o/oauth2/v2/auth (consent page), POST /token, POST /revoke; GET /v1/accounts (Account Management),
 * GET /v1/accounts/{a}/locations?readMask= (Business Information), POST /v4/accounts/{a}/locations/{l}/localPosts,
 * GET /v4/accounts/{a}/locations/{l}/localPosts/{p}; GET /v4/accounts/{a}/locations/{l}/reviews (paged: pageSize ≤ 50,
 * nextPageToken), PUT and DELETE /v4/…/reviews/{r}/reply. Test hooks: GET /__posts, GET /__requests, POST /__reset,
 * POST /__revoke-all; GET /__reviews?location=, POST /__reviews {location, reviews?, generate?, edit?, remove?}.
 * The guard's calls (issue 41), for any location id: GET /v1/locations/{l}?readMask=, GET /v1/locations/{l}:getGoogleUpdated?readMask=,
 * PATCH /v1/locations/{l}?updateMask= (Business Information v1), GET /v1/locations/{l}/VoiceOfMerchantState (Verifications v1);
 * hooks GET and POST /__gbp/locations/{id} (a FakeGuardUpdate), GET /__gbp/patches?location=locations/{id}.
 * POST /__config {latencyMs} sets the wait before every answer but the hooks' (0 by default; `reset` keeps it).
 */
export async function startGoogleFake(port = 0, options: Partial<GoogleFakeConfig> = {}): Promise<GoogleFake> {
  const config: GoogleFakeConfig = { latencyMs: Math.max(0, options.latencyMs ?? 0) };
  const codes = new Map<string, { user: FakeGoogleUser; challenge: string; method: string; redirectUri: string; clientId: string; grantId: string }>();
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, string>();
  const posts: FakeLocalPost[] = [];
  const requests: GoogleRequest[] = [];
  const failedOnce = new Set<string>();
  const AUSTIN = `${FAKE_GBP_ACCOUNT}/${FAKE_GBP_LOCATIONS[0]!.name}`;
  const reviews = new Map<string, FakeReview[]>([[AUSTIN, fixtureReviews()]]);
  const guard = new Map<string, FakeGuardLocation>();
  const guardPatches: FakeGuardPatch[] = [];
  let counter = 0;

  function guardLocation(id: string): FakeGuardLocation {
    const key = guardLocationKey(id);
    let state = guard.get(key);
    if (!state) {
      state = { owner: { ...googleLocationFields(), title: 'Ridge Roofing' }, google: {}, diffMask: [], pendingMask: [], voiceOfMerchant: 'verified', failGoogleUpdated: 0 };
      guard.set(key, state);
    }
    return state;
  }

  function setGuardLocation(id: string, update: FakeGuardUpdate): FakeGuardLocation {
    const state = guardLocation(id);
    const merge = (into: Fields, from: Fields | undefined) => {
      for (const [field, value] of Object.entries(from ?? {})) {
        if (value === null || value === undefined) delete into[field];
        else into[field] = structuredClone(value);
      }
    };
    merge(state.owner as Fields, update.owner);
    merge(state.google as Fields, update.google);
    if (update.diffMask) state.diffMask = [...update.diffMask];
    if (update.pendingMask) state.pendingMask = [...update.pendingMask];
    if (update.voiceOfMerchant) state.voiceOfMerchant = update.voiceOfMerchant;
    if (update.failGoogleUpdated !== undefined) state.failGoogleUpdated = Math.max(0, Number(update.failGoogleUpdated) || 0);
    return state;
  }

  const patchesOf = (id: string) => guardPatches.filter((p) => p.location === guardLocationKey(id));

  function reset() {
    codes.clear();
    grants.clear();
    accessTokens.clear();
    posts.length = 0;
    reviews.clear();
    reviews.set(AUSTIN, fixtureReviews());
    requests.length = 0;
    failedOnce.clear();
    guard.clear();
    guardPatches.length = 0;
  }

  function issueAccess(grantId: string): string {
    const token = `ya29.fake-${b64url(randomBytes(18))}`;
    accessTokens.set(token, grantId);
    return token;
  }

  function send(req: IncomingMessage, res: ServerResponse, path: string, status: number, body: unknown, extra: Partial<GoogleRequest> = {}) {
    requests.push({ method: req.method ?? 'GET', path, status, ...extra });
    sendJson(res, status, body);
  }

  function consentPage(res: ServerResponse, url: URL) {
    const q = url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Sign in - Google Accounts (fake)</title></head><body style="font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">${body}</body></html>`);
    };
    if (clientId !== FAKE_GOOGLE_CLIENT_ID) return html('<h1>Access blocked: Authorization Error</h1><p>Error 401: invalid_client</p><p>The OAuth client was not found.</p>', 401);
    if (q.get('response_type') !== 'code' || !redirectUri) return html('<h1>Error 400: invalid_request</h1><p>Required parameter is missing: response_type or redirect_uri</p>', 400);
    if (!q.get('code_challenge') || q.get('code_challenge_method') !== 'S256') return html('<h1>Error 400: invalid_request</h1><p>code_challenge_method must be S256 for this client.</p>', 400);
    const state = q.get('state') ?? '';
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      if (state) target.searchParams.set('state', state);
      return target.toString();
    };
    const choices = FAKE_GOOGLE_USERS.map((user) => {
      const code = `4/fake-${b64url(randomBytes(18))}`;
      codes.set(code, { user, challenge: q.get('code_challenge')!, method: 'S256', redirectUri, clientId, grantId: '' });
      return `<li><a data-user="${user}" href="${escapeHtml(back({ code, scope: q.get('scope') ?? '' }))}">Continue as ${user}@example.com</a></li>`;
    });
    return html(
      `<h1>Choose an account</h1><p>to continue to Porchlight (fake Google: see and manage your Business Profile — ${escapeHtml(q.get('scope') ?? '')})</p>` +
        `<ul>${choices.join('')}</ul><p><a data-user="deny" href="${escapeHtml(back({ error: 'access_denied' }))}">Cancel</a></p>`,
    );
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    const grantType = form.get('grant_type') ?? '';
    const presented = form.get('code') ?? undefined;
    const fail = (status: number, error: string, description: string) => send(req, res, '/token', status, googleOAuthError(error, description), { grantType, code: presented });
    if (form.get('client_id') !== FAKE_GOOGLE_CLIENT_ID || form.get('client_secret') !== FAKE_GOOGLE_CLIENT_SECRET) return fail(401, 'invalid_client', 'Unauthorized');
    if (grantType === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code) return fail(400, 'invalid_grant', 'Malformed auth code.');
      codes.delete(form.get('code')!);
      if (form.get('redirect_uri') !== code.redirectUri) return fail(400, 'redirect_uri_mismatch', 'Bad Request');
      const verifier = form.get('code_verifier') ?? '';
      if (!verifier) return fail(400, 'invalid_grant', 'Missing code verifier.');
      if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge) return fail(400, 'invalid_grant', 'Invalid code verifier.');
      const grantId = `g${++counter}`;
      const refreshToken = `1//fake-${b64url(randomBytes(24))}`;
      grants.set(grantId, { user: code.user, refreshToken, revoked: false });
      return send(req, res, '/token', 200, googleTokenAnswer({ accessToken: issueAccess(grantId), refreshToken, scope: SCOPE }), { grantType, code: presented });
    }
    if (grantType === 'refresh_token') {
      const entry = [...grants.entries()].find(([, g]) => g.refreshToken === form.get('refresh_token'));
      if (!entry || entry[1].revoked) return fail(400, 'invalid_grant', 'Token has been expired or revoked.');
      return send(req, res, '/token', 200, googleRefreshAnswer({ accessToken: issueAccess(entry[0]), scope: SCOPE }), { grantType });
    }
    return fail(400, 'unsupported_grant_type', 'Invalid grant_type: ' + grantType);
  }

  async function revoke(req: IncomingMessage, res: ServerResponse, url: URL) {
    const body = new URLSearchParams(await readBody(req));
    const value = url.searchParams.get('token') ?? body.get('token') ?? '';
    const byRefresh = [...grants.values()].find((g) => g.refreshToken === value);
    const byAccess = grants.get(accessTokens.get(value) ?? '');
    const grant = byRefresh ?? byAccess;
    if (!grant || grant.revoked) return send(req, res, '/revoke', 400, googleOAuthError('invalid_token', 'Token expired or revoked'));
    // Revoking either token ends the whole grant, as at Google.
    grant.revoked = true;
    return send(req, res, '/revoke', 200, {});
  }

  function caller(req: IncomingMessage): Grant | null {
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(auth)?.[1] ?? '';
    const grant = grants.get(accessTokens.get(token) ?? '');
    return grant && !grant.revoked ? grant : null;
  }

  function localPostJson(post: FakeLocalPost) {
    return googleLocalPost({ name: post.name, state: post.state, sent: post.body, time: new Date().toISOString() });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    const path = url.pathname;
    if (req.method === 'POST' && path === '/__config') {
      const asked = JSON.parse((await readBody(req)) || '{}') as { latencyMs?: unknown };
      if (typeof asked.latencyMs === 'number' && asked.latencyMs >= 0) config.latencyMs = asked.latencyMs;
      return sendJson(res, 200, config);
    }
    // Google's own time: every answer but the test hooks' waits (a request closed meanwhile gets none).
    if (!path.startsWith('/__') && config.latencyMs > 0 && !(await waitUnlessClosed(res, config.latencyMs))) return;
    if (req.method === 'GET' && path === '/__posts') return sendJson(res, 200, { posts });
    if (req.method === 'GET' && path === '/__requests') return sendJson(res, 200, { requests });
    if (req.method === 'GET' && path === '/__reviews') return sendJson(res, 200, { reviews: reviews.get(url.searchParams.get('location') ?? AUSTIN) ?? [] });
    if (req.method === 'POST' && path === '/__reviews') return reviewHook(req, res);
    const guardHook = /^\/__gbp\/locations\/([^/]+)$/.exec(path);
    if (guardHook && req.method === 'GET') return sendJson(res, 200, { location: guardLocation(guardHook[1]!) });
    if (guardHook && req.method === 'POST') return sendJson(res, 200, { location: setGuardLocation(guardHook[1]!, JSON.parse((await readBody(req)) || '{}') as FakeGuardUpdate) });
    if (req.method === 'GET' && path === '/__gbp/patches') {
      const location = url.searchParams.get('location');
      return sendJson(res, 200, { patches: location ? patchesOf(location) : guardPatches });
    }
    if (req.method === 'POST' && path === '/__reset') {
      reset();
      return sendJson(res, 200, {});
    }
    // As if every person removed the app's access in their Google account (the e2e journey's "reconnect needed").
    if (req.method === 'POST' && path === '/__revoke-all') {
      for (const grant of grants.values()) grant.revoked = true;
      return sendJson(res, 200, { revoked: grants.size });
    }
    if (req.method === 'GET' && path === '/o/oauth2/v2/auth') return consentPage(res, url);
    if (req.method === 'POST' && path === '/token') return token(req, res);
    if (req.method === 'POST' && path === '/revoke') return revoke(req, res, url);

    const grant = caller(req);
    const performance = /^\/v1\/locations\/[^/]+(:fetchMultiDailyMetricsTimeSeries|\/searchkeywords\/impressions\/monthly)$/.exec(path);
    const guarded = /^\/v1\/(locations\/[^/:]+)(:getGoogleUpdated|\/VoiceOfMerchantState)?$/.exec(path);
    const service = path.startsWith('/v4/')
      ? 'mybusiness.googleapis.com'
      : performance
        ? 'businessprofileperformance.googleapis.com'
        : guarded?.[2] === '/VoiceOfMerchantState'
          ? 'mybusinessverifications.googleapis.com'
          : /\/locations/.test(path)
            ? 'mybusinessbusinessinformation.googleapis.com'
            : 'mybusinessaccountmanagement.googleapis.com';
    if (!grant) return send(req, res, path, 401, UNAUTHENTICATED);
    if (grant.user === 'api-disabled') return send(req, res, path, 403, serviceDisabled(service));
    if (grant.user === 'not-approved') return send(req, res, path, 429, quotaZero(service));

    if (req.method === 'GET' && path === '/v1/accounts') {
      return send(req, res, path, 200, googleAccountsList({ name: FAKE_GBP_ACCOUNT, accountName: 'Ridge Roofing' }));
    }
    const locList = /^\/v1\/(accounts\/[^/]+)\/locations$/.exec(path);
    if (req.method === 'GET' && locList) {
      if (locList[1] !== FAKE_GBP_ACCOUNT) return send(req, res, path, 404, NOT_FOUND());
      const readMask = url.searchParams.get('readMask');
      if (!readMask) {
        return send(req, res, path, 400, googleStatusError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'read_mask', description: 'Field is required' }] }]));
      }
      const locations = FAKE_GBP_LOCATIONS.map((l) => ({ ...l, placeId: `ChIJfake${l.name.slice(10)}` }));
      return send(req, res, path, 200, googleLocationsList(locations, new Set(readMask.split(','))));
    }
    const create = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/localPosts$/.exec(path);
    if (req.method === 'POST' && create) {
      const location = FAKE_GBP_LOCATIONS.find((l) => `${FAKE_GBP_ACCOUNT}/${l.name}` === create[1]);
      if (!location) return send(req, res, path, 404, NOT_FOUND());
      if (!location.canOperateLocalPost) return send(req, res, path, 403, googleStatusError(403, 'The caller does not have permission', 'PERMISSION_DENIED'));
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      const summary = String(body.summary ?? '');
      if (summary.includes(GBP_MARKERS.down)) return send(req, res, path, 500, googleStatusError(500, 'Internal error encountered.', 'INTERNAL'));
      if (summary.includes(GBP_MARKERS.flaky) && !failedOnce.has(summary)) {
        failedOnce.add(summary);
        return send(req, res, path, 503, googleStatusError(503, 'The service is currently unavailable.', 'UNAVAILABLE'));
      }
      if (!body.topicType) {
        return send(req, res, path, 400, googleStatusError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT', [{ '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails: [{ code: 2, field: 'topic_type', message: 'Topic type is required for post creation.' }] }]));
      }
      if (summary.includes(GBP_MARKERS.invalid)) {
        return send(req, res, path, 400, googleStatusError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT', [{ '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails: [{ code: 3, field: 'summary', message: 'Posts may not contain phone numbers in the text.' }] }]));
      }
      const post: FakeLocalPost = { name: `${create[1]}/localPosts/${++counter}${Date.now().toString(36)}`, summary, topicType: String(body.topicType), state: 'PROCESSING', body, gets: 0, requestId: url.searchParams.get('requestId') };
      posts.push(post);
      return send(req, res, path, 200, localPostJson(post));
    }
    const get = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+\/localPosts\/[^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const post = posts.find((p) => p.name === get[1]);
      if (!post) return send(req, res, path, 404, NOT_FOUND());
      // Review ends on the first look after creation.
      post.gets += 1;
      if (post.state === 'PROCESSING') post.state = post.summary.includes(GBP_MARKERS.reject) ? 'REJECTED' : 'LIVE';
      return send(req, res, path, 200, localPostJson(post));
    }
    if (req.method === 'GET' && performance) {
      const location = FAKE_GBP_LOCATIONS.find((l) => path.startsWith(`/v1/${l.name}`));
      if (!location) return send(req, res, path, 404, NOT_FOUND());
      const q = url.searchParams;
      const num = (k: string) => Number(q.get(k));
      if (performance[1] === ':fetchMultiDailyMetricsTimeSeries') {
        const metrics = q.getAll('dailyMetrics');
        const start = Date.UTC(num('dailyRange.start_date.year'), num('dailyRange.start_date.month') - 1, num('dailyRange.start_date.day'));
        const end = Date.UTC(num('dailyRange.end_date.year'), num('dailyRange.end_date.month') - 1, num('dailyRange.end_date.day'));
        if (metrics.length === 0 || !Number.isFinite(start) || !Number.isFinite(end) || end < start) {
          return send(req, res, path, 400, googleStatusError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT'));
        }
        if (new Date(end).toISOString().slice(0, 7) === FAKE_FIGURES_DOWN_MONTH) return send(req, res, path, 503, googleStatusError(503, 'The service is currently unavailable.', 'UNAVAILABLE'));
        const series = metrics
          .filter((m) => m !== FAKE_PERFORMANCE_MISSING)
          .map((metric) => {
            const values: PerformanceDatedValue[] = [];
            for (let t = start; t <= end; t += 86_400_000) {
              const d = new Date(t);
              const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
              const value = fakePerformanceValue(metric, date);
              values.push(value === 0 ? { date } : { date, value: String(value) });
            }
            return { metric, values };
          });
        return send(req, res, path, 200, googleDailyMetrics(series));
      }
      const asked = `${q.get('monthlyRange.start_month.year')}-${String(q.get('monthlyRange.start_month.month')).padStart(2, '0')}`;
      if (asked === FAKE_KEYWORDS_DOWN_MONTH) return send(req, res, path, 503, googleStatusError(503, 'The service is currently unavailable.', 'UNAVAILABLE'));
      const PAGE = 3;
      const from = Number(q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString() : '0');
      const page = FAKE_SEARCH_KEYWORDS.slice(from, from + PAGE);
      const next = from + PAGE < FAKE_SEARCH_KEYWORDS.length ? Buffer.from(String(from + PAGE)).toString('base64url') : null;
      return send(req, res, path, 200, googleSearchKeywords(page, next));
    }
    if (guarded) return guardRoute(req, res, url, guarded[1]!, guarded[2] ?? '');
    const reviewList = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/reviews$/.exec(path);
    if (req.method === 'GET' && reviewList) {
      const all = reviews.get(reviewList[1]!);
      if (!all) return send(req, res, path, 404, googleStatusError(404, 'Requested entity was not found.', 'NOT_FOUND'));
      const size = Math.min(50, Math.max(1, Number(url.searchParams.get('pageSize')) || 50));
      const start = Number(url.searchParams.get('pageToken') || 0);
      const sorted = [...all].sort((a, b) => b.updateTime.localeCompare(a.updateTime));
      const page = sorted.slice(start, start + size);
      const rated = all.map((r) => STARS.indexOf(r.starRating) + 1);
      const answer = fixture<Record<string, unknown>>('google', 'reviews-list.json');
      answer.reviews = page;
      answer.averageRating = rated.length ? Math.round((rated.reduce((a, b) => a + b, 0) / rated.length) * 10) / 10 : 0;
      answer.totalReviewCount = all.length;
      if (start + size < sorted.length) answer.nextPageToken = String(start + size);
      else delete answer.nextPageToken;
      return send(req, res, path, 200, answer);
    }
    const reply = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/reviews\/([^/]+)\/reply$/.exec(path);
    if (reply && (req.method === 'PUT' || req.method === 'DELETE')) {
      const review = reviews.get(reply[1]!)?.find((r) => r.reviewId === reply[2]);
      if (!review) return send(req, res, path, 404, googleStatusError(404, 'Requested entity was not found.', 'NOT_FOUND'));
      if (req.method === 'DELETE') {
        if (!review.reviewReply) return send(req, res, path, 404, googleStatusError(404, 'Requested entity was not found.', 'NOT_FOUND'));
        delete review.reviewReply;
        return send(req, res, path, 200, {});
      }
      const body = JSON.parse((await readBody(req)) || '{}') as { comment?: unknown };
      const comment = typeof body.comment === 'string' ? body.comment : '';
      if (comment.includes(GBP_MARKERS.refuseReply)) return send(req, res, path, 400, fixture('google', 'review-reply-refused.json'));
      if (comment.includes(GBP_MARKERS.flakyReply) && !failedOnce.has(comment)) {
        failedOnce.add(comment);
        return send(req, res, path, 503, googleStatusError(503, 'The service is currently unavailable.', 'UNAVAILABLE'));
      }
      if (!comment.trim() || Buffer.byteLength(comment, 'utf8') > 4096) {
        return send(req, res, path, 400, googleStatusError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT'));
      }
      const answer = { ...fixture<{ comment: string; updateTime: string }>('google', 'review-reply.json'), comment, updateTime: new Date().toISOString() };
      review.reviewReply = answer;
      return send(req, res, path, 200, answer);
    }
    return send(req, res, path, 404, googleStatusError(404, `Unknown request URL: ${req.method} ${path}`, 'NOT_FOUND'));
  }

  /** The guard's Business Information and Verifications calls on one location (`locations/{id}`). */
  async function guardRoute(req: IncomingMessage, res: ServerResponse, url: URL, name: string, verb: string): Promise<void> {
    const path = url.pathname;
    const state = guardLocation(name);
    const readMask = () => new Set(maskPaths(url.searchParams.get('readMask')).map((p) => p.split('.')[0]!));
    if (verb === '/VoiceOfMerchantState') {
      if (req.method !== 'GET') return send(req, res, path, 404, googleStatusError(404, `Unknown request URL: ${req.method} ${path}`, 'NOT_FOUND'));
      return send(req, res, path, 200, googleVoiceOfMerchant(state.voiceOfMerchant));
    }
    if (verb === ':getGoogleUpdated') {
      if (req.method !== 'GET') return send(req, res, path, 404, googleStatusError(404, `Unknown request URL: ${req.method} ${path}`, 'NOT_FOUND'));
      if (state.failGoogleUpdated > 0) {
        state.failGoogleUpdated -= 1;
        return send(req, res, path, 503, UNAVAILABLE());
      }
      const mask = readMask();
      if (mask.size === 0) return send(req, res, path, 400, invalidArgument('read_mask', 'Field is required'));
      const location = googleLocation({ name, fields: overlay(state.owner as Fields, state.google as Fields) }, mask);
      return send(req, res, path, 200, googleUpdatedLocation({ location, diffMask: state.diffMask, pendingMask: state.pendingMask }));
    }
    if (req.method === 'GET') {
      const mask = readMask();
      if (mask.size === 0) return send(req, res, path, 400, invalidArgument('read_mask', 'Field is required'));
      return send(req, res, path, 200, googleLocation({ name, fields: state.owner as Fields }, mask));
    }
    if (req.method === 'PATCH') {
      const updateMask = maskPaths(url.searchParams.get('updateMask'));
      if (updateMask.length === 0) return send(req, res, path, 400, invalidArgument('update_mask', 'Field is required'));
      const unknown = updateMask.find((p) => !(GUARDED_FIELDS as readonly string[]).includes(p.split('.')[0]!));
      if (unknown) return send(req, res, path, 400, invalidArgument('update_mask', `Invalid field mask path: ${unknown}`));
      let body: Fields;
      try {
        const parsed: unknown = JSON.parse((await readBody(req)) || '{}');
        body = isObject(parsed) ? parsed : {};
      } catch {
        return send(req, res, path, 400, googleStatusError(400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT'));
      }
      // validateOnly: checked, nothing changed, an empty answer (the client never sends it).
      if (url.searchParams.get('validateOnly') === 'true') return send(req, res, path, 200, {});
      for (const field of updateMask) {
        // A masked field absent from the body is cleared; Google then shows the merchant's value, so the diff ends there.
        const value = getPath(body, field);
        setPath(state.owner as Fields, field, value);
        setPath(state.google as Fields, field, value);
        state.diffMask = state.diffMask.filter((d) => d !== field && !d.startsWith(`${field}.`) && !field.startsWith(`${d}.`));
      }
      guardPatches.push({ location: name, updateMask, body, at: new Date().toISOString() });
      return send(req, res, path, 200, googleLocation({ name, fields: state.owner as Fields }, null));
    }
    return send(req, res, path, 404, googleStatusError(404, `Unknown request URL: ${req.method} ${path}`, 'NOT_FOUND'));
  }

  /** Test hook: replace a location's reviews, generate many, edit one (a new updateTime) or remove one. */
  async function reviewHook(req: IncomingMessage, res: ServerResponse) {
    const body = JSON.parse((await readBody(req)) || '{}') as {
      location?: string;
      reviews?: FakeReview[];
      generate?: number;
      edit?: { reviewId: string; comment?: string; starRating?: FakeReview['starRating'] };
      remove?: string;
      add?: FakeReview;
    };
    const location = body.location ?? AUSTIN;
    if (body.reviews) reviews.set(location, body.reviews);
    if (body.generate !== undefined) reviews.set(location, generatedReviews(location, body.generate));
    const list = reviews.get(location) ?? [];
    if (body.add) list.unshift(body.add);
    if (body.edit) {
      const r = list.find((x) => x.reviewId === body.edit!.reviewId);
      if (r) {
        if (body.edit.comment !== undefined) r.comment = body.edit.comment;
        if (body.edit.starRating) r.starRating = body.edit.starRating;
        r.updateTime = new Date().toISOString();
      }
    }
    if (body.remove) reviews.set(location, list.filter((x) => x.reviewId !== body.remove));
    else reviews.set(location, list);
    return sendJson(res, 200, { reviews: reviews.get(location)!.length });
  }

  return serveFake(port, handle, { posts, reviews, requests, config, reset, guardLocation, setGuardLocation, guardPatches: patchesOf });
}
