// The Google client: OAuth 2.0 (authorize URL with PKCE, code exchange, refresh, revoke) and the Business Profile APIs
// (accounts, locations, v4 localPosts), with a time-out and one mapping of Google's errors. Free calls: nothing is metered.
import type { Env } from "../env";
import { GUARDED_FIELDS, type GbpLocationFields, type VoiceOfMerchantState } from "./rules/gbp-location";
import type { GmbPost } from "./rules/gmb-post";

export const GOOGLE_SCOPE = "https://www.googleapis.com/auth/business.manage";
export const GOOGLE_TIMEOUT_MS = 10_000;

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  accountsBase: string;
  businessInfoBase: string;
  postsBase: string;
  /** Business Profile Performance API (GBP_PERFORMANCE_BASE_URL; tests point it at the fake). */
  performanceBase: string;
  /** Verifications API (Voice of Merchant); GBP_API_BASE_URL like the other Business Profile APIs. */
  verificationsBase: string;
  timeoutMs: number;
}

const trim = (s: string | undefined) => (s ?? "").trim().replace(/\/+$/, "");

/** The configured client, or null without GOOGLE_OAUTH_CLIENT_ID and its secret (the scheduler then reminds). */
export function googleConfig(env: Env): GoogleConfig | null {
  const clientId = env.GOOGLE_OAUTH_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_OAUTH_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return null;
  const oauth = trim(env.GOOGLE_OAUTH_BASE_URL);
  const api = trim(env.GBP_API_BASE_URL);
  return {
    clientId,
    clientSecret,
    authorizeUrl: oauth ? `${oauth}/o/oauth2/v2/auth` : "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: oauth ? `${oauth}/token` : "https://oauth2.googleapis.com/token",
    revokeUrl: oauth ? `${oauth}/revoke` : "https://oauth2.googleapis.com/revoke",
    accountsBase: api || "https://mybusinessaccountmanagement.googleapis.com",
    businessInfoBase: api || "https://mybusinessbusinessinformation.googleapis.com",
    postsBase: api || "https://mybusiness.googleapis.com",
    performanceBase: trim(env.GBP_PERFORMANCE_BASE_URL) || "https://businessprofileperformance.googleapis.com",
    verificationsBase: api || "https://mybusinessverifications.googleapis.com",
    timeoutMs: Number(env.GOOGLE_TIMEOUT_MS) > 0 ? Number(env.GOOGLE_TIMEOUT_MS) : GOOGLE_TIMEOUT_MS,
  };
}

/** What went wrong talking to Google, sorted by what the caller should do. */
export type GoogleErrorKind =
  /** The token is refused (invalid_grant, 401): the user must connect again. */
  | "token_refused"
  /** The Business Profile APIs are not enabled for the Cloud project (403 SERVICE_DISABLED). */
  | "api_not_enabled"
  /** Enabled but not approved: Google gives the project a quota of 0 (429 with a 0 limit). */
  | "not_approved"
  /** Google refused the request itself (a validation error, no permission on the location). */
  | "refused"
  /** Try again later: 5xx, 429, time-out, network. */
  | "unavailable";

export class GoogleError extends Error {
  constructor(
    readonly kind: GoogleErrorKind,
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

interface GoogleStatus {
  error?:
    | string
    | {
        code?: number;
        message?: string;
        status?: string;
        details?: { "@type"?: string; reason?: string; metadata?: Record<string, string>; errorDetails?: { field?: string; message?: string }[] }[];
      };
  error_description?: string;
}

/** Maps an answer that is not 2xx to a GoogleError (OAuth's `{error, error_description}` or google.rpc.Status). */
export function classifyGoogleError(status: number, body: unknown): GoogleError {
  const b = (body && typeof body === "object" ? body : {}) as GoogleStatus;
  if (typeof b.error === "string") {
    const text = `${b.error}${b.error_description ? `: ${b.error_description}` : ""}`;
    if (b.error === "invalid_grant") return new GoogleError("token_refused", text, status);
    if (status >= 500) return new GoogleError("unavailable", text, status);
    return new GoogleError("refused", text, status);
  }
  const e = b.error ?? {};
  const message = e.message ?? `Google answered ${status}`;
  const infos = e.details ?? [];
  if (infos.some((d) => d.reason === "SERVICE_DISABLED" || d.reason === "ACCESS_NOT_CONFIGURED")) return new GoogleError("api_not_enabled", message, status);
  if (status === 429 && infos.some((d) => d.metadata?.quota_limit_value === "0")) return new GoogleError("not_approved", message, status);
  if (status === 401) return new GoogleError("token_refused", message, status);
  if (status >= 500 || status === 429 || status === 408) return new GoogleError("unavailable", message, status);
  const validation = infos.flatMap((d) => d.errorDetails ?? []).map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).filter(Boolean);
  return new GoogleError("refused", validation.length ? validation.join("; ") : message, status);
}

async function call<T>(config: GoogleConfig, url: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(config.timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new GoogleError("unavailable", timedOut ? `Google did not answer within ${config.timeoutMs} ms` : `Google could not be reached: ${String(error)}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) throw classifyGoogleError(res.status, body);
  return body as T;
}

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  let s = "";
  for (const b of digest) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function authorizeUrl(config: GoogleConfig, p: { redirectUri: string; state: string; codeChallenge: string }): string {
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: p.redirectUri,
    response_type: "code",
    scope: GOOGLE_SCOPE,
    state: p.state,
    code_challenge: p.codeChallenge,
    code_challenge_method: "S256",
    // A refresh token, and asked again each time so a reconnect gets a fresh one.
    access_type: "offline",
    prompt: "consent",
    include_granted_scopes: "true",
  }).toString();
  return url.toString();
}

export interface GoogleTokens {
  accessToken: string;
  /** Absent on a refresh (Google keeps the old one valid). */
  refreshToken: string | null;
  expiresAt: string;
  scope: string;
}

interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

function tokens(answer: TokenAnswer): GoogleTokens {
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt: new Date(Date.now() + (answer.expires_in ?? 3600) * 1000).toISOString(),
    scope: answer.scope ?? "",
  };
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

export async function exchangeCode(config: GoogleConfig, p: { code: string; codeVerifier: string; redirectUri: string }): Promise<GoogleTokens> {
  const answer = await call<TokenAnswer>(
    config,
    config.tokenUrl,
    form({ grant_type: "authorization_code", code: p.code, code_verifier: p.codeVerifier, redirect_uri: p.redirectUri, client_id: config.clientId, client_secret: config.clientSecret }),
  );
  return tokens(answer);
}

export async function refreshAccessToken(config: GoogleConfig, refreshToken: string): Promise<GoogleTokens> {
  const answer = await call<TokenAnswer>(config, config.tokenUrl, form({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: config.clientId, client_secret: config.clientSecret }));
  return tokens(answer);
}

/** Revokes the grant; a token Google no longer knows counts as revoked. */
export async function revokeToken(config: GoogleConfig, token: string): Promise<void> {
  try {
    await call(config, config.revokeUrl, form({ token }));
  } catch (error) {
    if (error instanceof GoogleError && error.status === 400) return;
    throw error;
  }
}

const bearer = (accessToken: string): RequestInit => ({ headers: { Authorization: `Bearer ${accessToken}` } });

export interface GbpLocation {
  /** `accounts/{a}/locations/{l}`: what localPosts needs. */
  name: string;
  title: string;
  address: string;
  canOperateLocalPost: boolean;
  /** The location's Google Maps place id (`metadata.placeId`): the review link's address. Null until Google gives one. */
  placeId: string | null;
}

interface LocationAnswer {
  name: string;
  title?: string;
  storefrontAddress?: { addressLines?: string[]; locality?: string; administrativeArea?: string };
  metadata?: { canOperateLocalPost?: boolean; placeId?: string };
}

/** Every location of every account the user manages (Account Management v1 + Business Information v1, readMask). */
export async function listLocations(config: GoogleConfig, accessToken: string): Promise<GbpLocation[]> {
  const { accounts = [] } = await call<{ accounts?: { name: string }[] }>(config, `${config.accountsBase}/v1/accounts?pageSize=20`, bearer(accessToken));
  const out: GbpLocation[] = [];
  for (const account of accounts.slice(0, 20)) {
    let pageToken = "";
    for (let page = 0; page < 5; page++) {
      const url = new URL(`${config.businessInfoBase}/v1/${account.name}/locations`);
      url.searchParams.set("readMask", "name,title,storefrontAddress,metadata");
      url.searchParams.set("pageSize", "100");
      if (pageToken) url.searchParams.set("pageToken", pageToken);
      const answer = await call<{ locations?: LocationAnswer[]; nextPageToken?: string }>(config, url.toString(), bearer(accessToken));
      for (const l of answer.locations ?? []) {
        const a = l.storefrontAddress;
        out.push({
          name: `${account.name}/${l.name}`,
          title: l.title ?? l.name,
          address: [a?.addressLines?.join(", "), a?.locality, a?.administrativeArea].filter(Boolean).join(", "),
          canOperateLocalPost: l.metadata?.canOperateLocalPost === true,
          placeId: l.metadata?.placeId?.trim() || null,
        });
      }
      if (!answer.nextPageToken) break;
      pageToken = answer.nextPageToken;
    }
  }
  return out;
}

export type LocalPostState = "PROCESSING" | "LIVE" | "REJECTED" | "LOCAL_POST_STATE_UNSPECIFIED";
export interface LocalPostAnswer {
  name: string;
  state?: LocalPostState;
  searchUrl?: string;
}

const googleDate = (iso: string) => {
  const [year, month, day] = iso.split("-").map(Number);
  return { year, month, day };
};

/** Our GmbPost as Google's v4 LocalPost (an offer's title and dates travel in `event`, as Google asks). */
export function toLocalPost(post: GmbPost): Record<string, unknown> {
  const body: Record<string, unknown> = { languageCode: "en", summary: post.summary, topicType: post.type };
  if (post.callToAction) body.callToAction = { actionType: post.callToAction.actionType, ...(post.callToAction.url ? { url: post.callToAction.url } : {}) };
  const span = post.type === "OFFER" ? post.offer : post.type === "EVENT" ? post.event : null;
  if (span) body.event = { title: span.title, schedule: { startDate: googleDate(span.startDate), endDate: googleDate(span.endDate) } };
  if (post.type === "OFFER" && post.offer) {
    body.offer = { ...(post.offer.couponCode ? { couponCode: post.offer.couponCode } : {}), ...(post.offer.terms ? { termsConditions: post.offer.terms } : {}) };
  }
  return body;
}

export async function createLocalPost(config: GoogleConfig, accessToken: string, locationName: string, post: GmbPost): Promise<LocalPostAnswer> {
  return call<LocalPostAnswer>(config, `${config.postsBase}/v4/${locationName}/localPosts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(toLocalPost(post)),
  });
}

export async function getLocalPost(config: GoogleConfig, accessToken: string, postName: string): Promise<LocalPostAnswer> {
  return call<LocalPostAnswer>(config, `${config.postsBase}/v4/${postName}`, bearer(accessToken));
}

// ---- reviews (Google My Business API v4, accounts.locations.reviews) ----

/** Google's Review resource (the fields we keep). */
export interface GoogleReview {
  name: string;
  reviewId: string;
  reviewer?: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating?: string;
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
}

export interface GoogleReviewPage {
  reviews: GoogleReview[];
  averageRating: number | null;
  totalReviewCount: number | null;
  nextPageToken: string | null;
}

/** Largest page Google gives (pageSize 50). */
export const REVIEWS_PAGE_SIZE = 50;

/** One page of a location's reviews, newest first (`orderBy=updateTime desc`). */
export async function listReviews(config: GoogleConfig, accessToken: string, locationName: string, pageToken?: string | null): Promise<GoogleReviewPage> {
  const url = new URL(`${config.postsBase}/v4/${locationName}/reviews`);
  url.searchParams.set("pageSize", String(REVIEWS_PAGE_SIZE));
  url.searchParams.set("orderBy", "updateTime desc");
  if (pageToken) url.searchParams.set("pageToken", pageToken);
  const answer = await call<{ reviews?: GoogleReview[]; averageRating?: number; totalReviewCount?: number; nextPageToken?: string } | null>(config, url.toString(), bearer(accessToken));
  return {
    reviews: answer?.reviews ?? [],
    averageRating: typeof answer?.averageRating === "number" ? answer.averageRating : null,
    totalReviewCount: typeof answer?.totalReviewCount === "number" ? answer.totalReviewCount : null,
    nextPageToken: answer?.nextPageToken || null,
  };
}

/** Creates or replaces the owner's reply (`reviews.updateReply`); Google answers the ReviewReply. */
export async function updateReviewReply(config: GoogleConfig, accessToken: string, reviewName: string, comment: string): Promise<{ comment: string; updateTime: string }> {
  const answer = await call<{ comment?: string; updateTime?: string } | null>(config, `${config.postsBase}/v4/${reviewName}/reply`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ comment }),
  });
  return { comment: answer?.comment ?? comment, updateTime: answer?.updateTime ?? new Date().toISOString() };
}

/** Deletes the owner's reply (`reviews.deleteReply`); a reply Google no longer has counts as deleted. */
export async function deleteReviewReply(config: GoogleConfig, accessToken: string, reviewName: string): Promise<void> {
  try {
    await call(config, `${config.postsBase}/v4/${reviewName}/reply`, { method: "DELETE", headers: { Authorization: `Bearer ${accessToken}` } });
  } catch (error) {
    if (error instanceof GoogleError && error.status === 404) return;
    throw error;
  }
}

/** The Performance API's daily metrics a monthly report reads (calls, directions, website clicks, impressions by surface). */
export const DAILY_METRICS = [
  "CALL_CLICKS",
  "WEBSITE_CLICKS",
  "BUSINESS_DIRECTION_REQUESTS",
  "BUSINESS_CONVERSATIONS",
  "BUSINESS_IMPRESSIONS_DESKTOP_MAPS",
  "BUSINESS_IMPRESSIONS_DESKTOP_SEARCH",
  "BUSINESS_IMPRESSIONS_MOBILE_MAPS",
  "BUSINESS_IMPRESSIONS_MOBILE_SEARCH",
] as const;
export type DailyMetric = (typeof DAILY_METRICS)[number];

/** A calendar day as the Performance API gives dates. */
export type ApiDate = { year: number; month: number; day: number };

/** One metric's values per day ("YYYY-MM-DD" → count; a day Google gives without a value is 0). */
export type DailySeries = Map<DailyMetric, Map<string, number>>;

/**
 * "locations/{id}" from a stored `accounts/{a}/locations/{id}` name: the v1 APIs that name a location alone
 * (Business Information's locations.*, Performance, Verifications) take this.
 */
export function v1LocationName(locationName: string): string {
  const id = /locations\/([^/]+)$/.exec(locationName)?.[1];
  if (!id) throw new GoogleError("refused", `not a location name: ${locationName}`);
  return `locations/${id}`;
}

/** The Performance API's name for a location (see v1LocationName). */
export const performanceLocation = v1LocationName;

const isoDay = (d: ApiDate) => `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

/**
 * `locations.fetchMultiDailyMetricsTimeSeries`: the metrics' values for each day of the range (inclusive). A metric
 * Google does not answer is absent from the map (the caller shows it as not given, never as 0).
 */
export async function fetchDailyMetrics(config: GoogleConfig, accessToken: string, locationName: string, metrics: readonly DailyMetric[], range: { start: ApiDate; end: ApiDate }): Promise<DailySeries> {
  const url = new URL(`${config.performanceBase}/v1/${performanceLocation(locationName)}:fetchMultiDailyMetricsTimeSeries`);
  for (const m of metrics) url.searchParams.append("dailyMetrics", m);
  for (const [edge, d] of [["start_date", range.start], ["end_date", range.end]] as const) {
    url.searchParams.set(`dailyRange.${edge}.year`, String(d.year));
    url.searchParams.set(`dailyRange.${edge}.month`, String(d.month));
    url.searchParams.set(`dailyRange.${edge}.day`, String(d.day));
  }
  type Answer = { multiDailyMetricTimeSeries?: { dailyMetricTimeSeries?: { dailyMetric?: string; timeSeries?: { datedValues?: { date?: ApiDate; value?: string }[] } }[] }[] } | null;
  const answer = await call<Answer>(config, url.toString(), bearer(accessToken));
  const out: DailySeries = new Map();
  for (const group of answer?.multiDailyMetricTimeSeries ?? []) {
    for (const series of group.dailyMetricTimeSeries ?? []) {
      const metric = series.dailyMetric as DailyMetric;
      if (!metrics.includes(metric)) continue;
      const days = out.get(metric) ?? new Map<string, number>();
      for (const v of series.timeSeries?.datedValues ?? []) {
        if (!v.date) continue;
        const n = v.value === undefined ? 0 : Number(v.value);
        days.set(isoDay(v.date), Number.isFinite(n) ? n : 0);
      }
      out.set(metric, days);
    }
  }
  return out;
}

/** A search term that found the profile in a month range: its impressions, or Google's threshold when too few to give. */
export type SearchKeywordCount = { keyword: string; impressions: number | null; threshold: number | null };

/** `locations.searchkeywords.impressions.monthly.list`, every page (at most `maxPages` of 100). */
export async function listSearchKeywords(config: GoogleConfig, accessToken: string, locationName: string, range: { start: { year: number; month: number }; end: { year: number; month: number } }, maxPages = 5): Promise<SearchKeywordCount[]> {
  const out: SearchKeywordCount[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const url = new URL(`${config.performanceBase}/v1/${performanceLocation(locationName)}/searchkeywords/impressions/monthly`);
    url.searchParams.set("monthlyRange.start_month.year", String(range.start.year));
    url.searchParams.set("monthlyRange.start_month.month", String(range.start.month));
    url.searchParams.set("monthlyRange.end_month.year", String(range.end.year));
    url.searchParams.set("monthlyRange.end_month.month", String(range.end.month));
    url.searchParams.set("pageSize", "100");
    if (pageToken) url.searchParams.set("pageToken", pageToken);
    type Answer = { searchKeywordsCounts?: { searchKeyword?: string; insightsValue?: { value?: string; threshold?: string } }[]; nextPageToken?: string } | null;
    const answer: Answer = await call<Answer>(config, url.toString(), bearer(accessToken));
    for (const c of answer?.searchKeywordsCounts ?? []) {
      if (!c.searchKeyword) continue;
      const value = c.insightsValue?.value;
      const threshold = c.insightsValue?.threshold;
      out.push({ keyword: c.searchKeyword, impressions: value !== undefined ? Number(value) : null, threshold: threshold !== undefined ? Number(threshold) : null });
    }
    pageToken = answer?.nextPageToken || null;
    if (!pageToken) break;
  }
  return out;
}

// ---- the guarded fields (issue 41: Business Information v1 locations.get / getGoogleUpdated / patch, Verifications v1) ----

const GUARDED_READ_MASK = GUARDED_FIELDS.join(",");

/** The guarded fields a Location answer holds (the others, `name` included, left out). */
function guardedFields(location: unknown): GbpLocationFields {
  const from = (location && typeof location === "object" ? location : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of GUARDED_FIELDS) if (from[field] !== undefined && from[field] !== null) out[field] = from[field];
  return out as GbpLocationFields;
}

/** A FieldMask as JSON carries it ("a,b.c", or absent when empty) → its paths. */
const maskPaths = (mask: unknown): string[] => (typeof mask === "string" ? mask.split(",").map((p) => p.trim()).filter(Boolean) : []);

/** `locations.get` with the guarded fields as readMask: the merchant's values as Google holds them. */
export async function getLocationFields(config: GoogleConfig, accessToken: string, locationName: string): Promise<GbpLocationFields> {
  const url = new URL(`${config.businessInfoBase}/v1/${v1LocationName(locationName)}`);
  url.searchParams.set("readMask", GUARDED_READ_MASK);
  return guardedFields(await call<unknown>(config, url.toString(), bearer(accessToken)));
}

/**
 * `locations.getGoogleUpdated`: the location as Google shows it, `diffMask` the fields Google changed (accept by patching
 * them with Google's value, reject by patching them with the merchant's), `pendingMask` the merchant's edits not yet live.
 */
export async function getGoogleUpdated(config: GoogleConfig, accessToken: string, locationName: string): Promise<{ location: GbpLocationFields; diffMask: string[]; pendingMask: string[] }> {
  const url = new URL(`${config.businessInfoBase}/v1/${v1LocationName(locationName)}:getGoogleUpdated`);
  url.searchParams.set("readMask", GUARDED_READ_MASK);
  const answer = await call<{ location?: unknown; diffMask?: string; pendingMask?: string } | null>(config, url.toString(), bearer(accessToken));
  return { location: guardedFields(answer?.location), diffMask: maskPaths(answer?.diffMask), pendingMask: maskPaths(answer?.pendingMask) };
}

/** `locations.patch`: sets the fields `updateMask` names (a named field absent from `fields` is cleared, as Google does); answers the location. */
export async function patchLocation(config: GoogleConfig, accessToken: string, locationName: string, fields: GbpLocationFields, updateMask: string[]): Promise<GbpLocationFields> {
  const mask = updateMask.map((p) => p.trim()).filter(Boolean);
  if (mask.length === 0) throw new GoogleError("refused", "locations.patch needs an updateMask");
  const url = new URL(`${config.businessInfoBase}/v1/${v1LocationName(locationName)}`);
  url.searchParams.set("updateMask", mask.join(","));
  const answer = await call<unknown>(config, url.toString(), {
    method: "PATCH",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(guardedFields(fields)),
  });
  return guardedFields(answer);
}

interface VoiceOfMerchantAnswer {
  hasVoiceOfMerchant?: boolean;
  hasBusinessAuthority?: boolean;
  // The union gain_voice_of_merchant_action: at most one is present (WaitForVoiceOfMerchant, ResolveOwnershipConflict are empty messages).
  waitForVoiceOfMerchant?: object;
  verify?: { hasPendingVerification?: boolean };
  resolveOwnershipConflict?: object;
  complyWithGuidelines?: { recommendationReason?: string };
}

/** Verifications API `locations.getVoiceOfMerchantState` (GET …/v1/locations/{id}/VoiceOfMerchantState): whether the merchant's edits go live. */
export async function getVoiceOfMerchantState(config: GoogleConfig, accessToken: string, locationName: string): Promise<VoiceOfMerchantState> {
  const a = (await call<VoiceOfMerchantAnswer | null>(config, `${config.verificationsBase}/v1/${v1LocationName(locationName)}/VoiceOfMerchantState`, bearer(accessToken))) ?? {};
  const action: VoiceOfMerchantState["action"] = a.complyWithGuidelines
    ? "comply_with_guidelines"
    : a.resolveOwnershipConflict
      ? "resolve_ownership_conflict"
      : a.verify
        ? "verify"
        : a.waitForVoiceOfMerchant
          ? "wait"
          : "none";
  return {
    hasVoiceOfMerchant: a.hasVoiceOfMerchant === true,
    hasBusinessAuthority: a.hasBusinessAuthority === true,
    action,
    reason: a.complyWithGuidelines?.recommendationReason || null,
  };
}
