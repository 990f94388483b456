// The fakes' answers, each built from a provider's documented example answer (tests/fakes/fixtures, sources in
// fixtures/SOURCES.md): the fixture is loaded fresh and only the values a test needs are changed (ids, content, token
// counts, names, states). A fake never writes an answer's shape itself, so a shape fixed in a fixture is fixed in the fake.
import { GUARDED_FIELDS } from '../../worker/platform/providers/rules/gbp-location';
import { fixture as readFixture, fixtureBytes, fixtureText, type FixtureProvider } from './fixtures';

const parsed = new Map<string, Record<string, any>>();
/** A fresh copy of a JSON fixture, read from disk once (the fakes answer many requests, the benchmarks more). */
function fixture(provider: FixtureProvider, file: string): Record<string, any> {
  const key = `${provider}/${file}`;
  if (!parsed.has(key)) parsed.set(key, readFixture(provider, file));
  return structuredClone(parsed.get(key)!);
}

/* ---------------------------------- OpenAI ---------------------------------- */

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The documented `usage` object (with its token details) carrying these counts. */
function openAiUsage(usage: OpenAiUsage): Record<string, unknown> {
  const documented = fixture('openai', 'chat-completion.json').usage as Record<string, unknown>;
  return { ...documented, ...usage };
}

/** A chat completion (`openai/chat-completion.json`) with this id, model, content and usage (none: no `usage` field). */
export function openAiCompletion(values: { id: string; created: number; model: string; content: string; usage: OpenAiUsage | null }) {
  const answer = fixture('openai', 'chat-completion.json');
  answer.id = values.id;
  answer.created = values.created;
  answer.model = values.model;
  answer.choices[0].message.content = values.content;
  if (values.usage) answer.usage = openAiUsage(values.usage);
  else delete answer.usage;
  return answer;
}

/** The documented stream's chunks (`openai/chat-completion-stream.txt`): its role, content, stop and usage chunks. */
let chunksRead: Record<string, any>[] | null = null;
function documentedChunks(): Record<string, any>[] {
  chunksRead ??= fixtureText('openai', 'chat-completion-stream.txt')
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, any>);
  return chunksRead;
}

/**
 * The chunks of one streamed answer, as the documented stream orders them: the role chunk, one content chunk per piece,
 * the stop chunk, and (with `usage`) the usage chunk with empty `choices`. Each is one SSE `data:` line's JSON.
 */
export function openAiStreamChunks(values: { id: string; created: number; model: string }) {
  const chunks = documentedChunks();
  const role = chunks.find((c) => c.choices[0]?.delta?.role)!;
  const content = chunks.find((c) => typeof c.choices[0]?.delta?.content === 'string' && !c.choices[0].delta.role)!;
  const stop = chunks.find((c) => c.choices[0]?.finish_reason)!;
  const usageChunk = chunks.find((c) => c.usage && c.choices.length === 0)!;
  const own = (chunk: Record<string, any>): Record<string, any> => ({ ...structuredClone(chunk), id: values.id, created: values.created, model: values.model });
  return {
    role: () => own(role),
    content: (text: string) => {
      const chunk = own(content);
      chunk.choices[0].delta.content = text;
      return chunk;
    },
    stop: () => own(stop),
    usage: (usage: OpenAiUsage) => {
      const chunk = own(usageChunk);
      chunk.usage = { ...chunk.usage, ...usage };
      return chunk;
    },
  };
}

/** An error answer (`openai/error.json`, the documented ErrorResponse) with this message, type and code. */
export function openAiError(message: string, type: string, code: string | null) {
  const answer = fixture('openai', 'error.json');
  answer.error.message = message;
  answer.error.type = type;
  answer.error.code = code;
  return answer;
}

/* ------------------------------ Google (OAuth) ------------------------------ */

/** The token endpoint's answer to a code exchange (`google/oauth-token.json`) with these tokens. */
export function googleTokenAnswer(values: { accessToken: string; refreshToken: string; scope: string }) {
  return { ...fixture('google', 'oauth-token.json'), access_token: values.accessToken, refresh_token: values.refreshToken, scope: values.scope };
}

/** The token endpoint's answer to a refresh (`google/oauth-token-refresh.json`): no new refresh token. */
export function googleRefreshAnswer(values: { accessToken: string; scope: string }) {
  return { ...fixture('google', 'oauth-token-refresh.json'), access_token: values.accessToken, scope: values.scope };
}

/** The OAuth endpoints' error (`google/oauth-error.json`): `error` and `error_description`. */
export function googleOAuthError(error: string, description: string) {
  return { ...fixture('google', 'oauth-error.json'), error, error_description: description };
}

/* ------------------------- Google (Business Profile) ------------------------ */

/** Google's error status (`google/error-status.json`) with this code, message, status and, when given, details. */
export function googleStatusError(code: number, message: string, status: string, details?: unknown[]) {
  const answer = fixture('google', 'error-status.json');
  Object.assign(answer.error, { code, message, status });
  if (details) answer.error.details = details;
  return answer;
}

function swapService<T>(answer: T, service: string): T {
  return JSON.parse(JSON.stringify(answer).replaceAll('mybusinessaccountmanagement.googleapis.com', service)) as T;
}

/** A project without the API enabled (`google/error-service-disabled.json`), for this service. */
export function googleServiceDisabled(service: string, apiTitle: string) {
  const answer = swapService(fixture('google', 'error-service-disabled.json'), service);
  answer.error.message = answer.error.message.replace('My Business Account Management API', apiTitle);
  return answer;
}

/** A project whose quota is 0 requests a minute (`google/error-quota.json`), for this service. */
export function googleQuotaZero(service: string) {
  return swapService(fixture('google', 'error-quota.json'), service);
}

/** `accounts.list` (`google/accounts-list.json`) answering one account with this name. */
export function googleAccountsList(values: { name: string; accountName: string }) {
  const answer = fixture('google', 'accounts-list.json');
  answer.accounts = [{ ...answer.accounts[0], name: values.name, accountName: values.accountName }];
  return answer;
}

export interface LocationValues {
  name: string;
  title: string;
  locality: string;
  canOperateLocalPost: boolean;
  placeId: string;
}

/**
 * `accounts.locations.list` (`google/locations-list.json`): each location is the documented storefront location with
 * these values, holding only the fields the readMask asks for (and `name`), as Google answers.
 */
export function googleLocationsList(locations: LocationValues[], readMask: Set<string>) {
  const answer = fixture('google', 'locations-list.json');
  const template = answer.locations[0] as Record<string, any>;
  answer.locations = locations.map((values) => {
    const location: Record<string, any> = structuredClone(template);
    location.name = values.name;
    location.title = values.title;
    location.storefrontAddress.locality = values.locality;
    Object.assign(location.metadata, { canOperateLocalPost: values.canOperateLocalPost, hasVoiceOfMerchant: values.canOperateLocalPost, placeId: values.placeId });
    for (const field of Object.keys(location)) if (field !== 'name' && !readMask.has(field)) delete location[field];
    return location;
  });
  answer.totalSize = locations.length;
  return answer;
}

/** A local post (`google/local-post-created.json`): the documented post with the sent fields, this name and state. */
export function googleLocalPost(values: { name: string; state: string; sent: Record<string, unknown>; time: string }) {
  const answer = fixture('google', 'local-post-created.json');
  const id = values.name.split('/').pop()!;
  return {
    ...answer,
    ...values.sent,
    name: values.name,
    state: values.state,
    createTime: values.time,
    updateTime: values.time,
    searchUrl: answer.searchUrl.replace(/lpsid=[^&]+/, `lpsid=${id}`),
  };
}

/* ------------------ Google (guarded fields, Voice of Merchant) ----------------- */

/** The documented location's guarded fields (`google/location-get.json`): the fake's merchant values for a new location. */
export function googleLocationFields(): Record<string, unknown> {
  const answer = fixture('google', 'location-get.json');
  delete answer.name;
  return answer;
}

/**
 * `locations.get` (`google/location-get.json`): the documented location with this name and these guarded fields (a guarded
 * field not given is absent), holding only the fields the readMask asks for (and `name`), as Google answers.
 */
export function googleLocation(values: { name: string; fields: Record<string, unknown> }, readMask: Set<string> | null) {
  const answer = fixture('google', 'location-get.json');
  for (const field of GUARDED_FIELDS) delete answer[field];
  Object.assign(answer, structuredClone(values.fields), { name: values.name });
  if (readMask) for (const field of Object.keys(answer)) if (field !== 'name' && !readMask.has(field)) delete answer[field];
  return answer;
}

/** `locations.getGoogleUpdated` (`google/location-google-updated.json`): this location; an empty mask is left out, as proto3 JSON does. */
export function googleUpdatedLocation(values: { location: Record<string, unknown>; diffMask: string[]; pendingMask: string[] }) {
  const answer = fixture('google', 'location-google-updated.json');
  answer.location = values.location;
  for (const key of ['diffMask', 'pendingMask'] as const) {
    if (values[key].length) answer[key] = values[key].join(',');
    else delete answer[key];
  }
  return answer;
}

export type VoiceOfMerchantValue = 'verified' | 'suspended' | 'unverified' | 'wait';

/**
 * `locations.getVoiceOfMerchantState`: verified is `google/voice-of-merchant-state.json`, suspended
 * `google/voice-of-merchant-suspended.json` (complyWithGuidelines); unverified and wait are the verified answer with the
 * union's other documented members (`verify {hasPendingVerification}`, an empty `waitForVoiceOfMerchant`).
 */
export function googleVoiceOfMerchant(state: VoiceOfMerchantValue) {
  if (state === 'suspended') return fixture('google', 'voice-of-merchant-suspended.json');
  const answer = fixture('google', 'voice-of-merchant-state.json');
  if (state === 'unverified') return { ...answer, hasVoiceOfMerchant: false, hasBusinessAuthority: false, verify: { hasPendingVerification: false } };
  if (state === 'wait') return { ...answer, hasVoiceOfMerchant: false, waitForVoiceOfMerchant: {} };
  return answer;
}

/* ------------------------- ElevenLabs (text to speech) ---------------------- */

/** The audio of `POST /v1/text-to-speech/:voiceId` at the default output_format (`elevenlabs/text-to-speech.mp3`). */
let speech: Uint8Array | null = null;
export function elevenLabsSpeech(): Uint8Array {
  speech ??= fixtureBytes('elevenlabs', 'text-to-speech.mp3');
  return speech;
}

/** The documented 422 (`elevenlabs/error-validation.json`, HTTPValidationError) naming this body field. */
export function elevenLabsValidationError(field: string, msg: string) {
  const answer = fixture('elevenlabs', 'error-validation.json');
  answer.detail[0].loc = ['body', field];
  answer.detail[0].msg = msg;
  return answer;
}

/** A refused key (`elevenlabs/error-unauthorized.json`); other refusals of that form carry their own status and message. */
export function elevenLabsUnauthorized(values?: { status: string; message: string }) {
  const answer = fixture('elevenlabs', 'error-unauthorized.json');
  if (values) answer.detail = { ...answer.detail, ...values };
  return answer;
}

/** One date's value as the Performance API gives it: an int64 as a string, the key left out when it is zero. */
export type PerformanceDatedValue = { date: { year: number; month: number; day: number }; value?: string };

/** `locations.fetchMultiDailyMetricsTimeSeries` (fixtures/google/performance-daily-metrics.json) with the fake's series. */
export function googleDailyMetrics(series: { metric: string; values: PerformanceDatedValue[] }[]) {
  const answer = fixture('google', 'performance-daily-metrics.json');
  const [template] = answer.multiDailyMetricTimeSeries[0].dailyMetricTimeSeries;
  return {
    ...answer,
    multiDailyMetricTimeSeries: [
      { dailyMetricTimeSeries: series.map((s) => ({ ...template, dailyMetric: s.metric, timeSeries: { ...template.timeSeries, datedValues: s.values } })) },
    ],
  };
}

/** `locations.searchkeywords.impressions.monthly.list` (fixtures/google/performance-search-keywords.json) with the fake's page. */
export function googleSearchKeywords(counts: { keyword: string; value?: number; threshold?: number }[], nextPageToken: string | null) {
  const answer = fixture('google', 'performance-search-keywords.json');
  const out: Record<string, unknown> = {
    ...answer,
    searchKeywordsCounts: counts.map((c) => ({ searchKeyword: c.keyword, insightsValue: c.value !== undefined ? { value: String(c.value) } : { threshold: String(c.threshold) } })),
  };
  if (nextPageToken) out.nextPageToken = nextPageToken;
  else delete out.nextPageToken;
  return out;
}

/* ------------------------- AI Visibility engines (issue 29) ------------------------- */

export type CitedValue = { url: string; title: string };

/** The Responses API's answer with web search (`openai/response-web-search.json`): this text, its url_citation annotations. */
export function openAiWebSearchResponse(values: { id: string; createdAt: number; model: string; text: string; sources: CitedValue[] | null; query: string; location: unknown }) {
  const answer = fixture('openai', 'response-web-search.json');
  answer.id = values.id;
  answer.created_at = values.createdAt;
  answer.model = values.model;
  const [call, message] = answer.output;
  call.action.query = values.query;
  const part = message.content[0];
  const documented = part.annotations as Record<string, any>[];
  const sources = values.sources ?? documented.map((a) => ({ url: a.url, title: a.title }));
  // Each source cited at the end, as the documented answer does: "([domain](url))", its annotation spanning it.
  let text = values.text;
  part.annotations = sources.map((s, i) => {
    const link = ` ([${new URL(s.url).hostname.replace(/^www\./, '')}](${s.url}))`;
    const start = text.length + 1;
    text += link;
    return { ...structuredClone(documented[Math.min(i, documented.length - 1)]!), start_index: start, end_index: text.length, url: s.url, title: s.title };
  });
  part.text = text;
  if (values.location) answer.tools[0].user_location = values.location;
  return answer;
}

/** Perplexity's chat completion (`perplexity/chat-completion.json`) with this content and its sources. */
export function perplexityCompletion(values: { id: string; created: number; model: string; content: string; sources: CitedValue[] | null }) {
  const answer = fixture('perplexity', 'chat-completion.json');
  answer.id = values.id;
  answer.created = values.created;
  answer.model = values.model;
  answer.choices[0].message.content = values.content;
  if (values.sources) {
    const documented = answer.search_results[0];
    answer.citations = values.sources.map((s) => s.url);
    answer.search_results = values.sources.map((s) => ({ ...documented, title: s.title, url: s.url }));
  }
  return answer;
}

/** Perplexity's error body (`perplexity/error.json`). */
export function perplexityError(message: string, type: string, code: number) {
  const answer = fixture('perplexity', 'error.json');
  Object.assign(answer.error, { message, type, code });
  return answer;
}

/** Gemini's grounded answer (`gemini/generate-content-google-search.json`): this text, one grounding chunk per source. */
export function geminiGroundedAnswer(values: { model: string; text: string; sources: CitedValue[] | null; query: string }) {
  const answer = fixture('gemini', 'generate-content-google-search.json');
  const candidate = answer.candidates[0];
  candidate.content.parts[0].text = values.text;
  const meta = candidate.groundingMetadata;
  if (values.sources) {
    // Gemini's chunks hold Google's redirect as uri and the source's domain as title.
    meta.groundingChunks = values.sources.map((s, i) => ({ web: { uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/fake${i}`, title: new URL(s.url).hostname.replace(/^www\./, '') } }));
  }
  meta.groundingSupports[0].segment = { startIndex: 0, endIndex: values.text.length, text: values.text };
  meta.groundingSupports[0].groundingChunkIndices = meta.groundingChunks.map((_: unknown, i: number) => i);
  meta.webSearchQueries = [values.query];
  answer.modelVersion = values.model;
  return answer;
}

type SerpAiValues = { q: string; location: string; intro: string; names: { title: string; snippet: string }[]; sources: CitedValue[] | null };

/** The ai_overview / ai_mode body: a paragraph, a list of the names, and the references. */
function serpAiBlocks(from: Record<string, any>, values: SerpAiValues) {
  const [paragraph, list] = from.text_blocks as Record<string, any>[];
  const item = list!.list[0];
  const documentedRef = from.references[0];
  const references = values.sources ? values.sources.map((s, index) => ({ ...documentedRef, title: s.title, link: s.url, source: new URL(s.url).hostname.replace(/^www\./, ''), index })) : from.references;
  return {
    text_blocks: [
      { ...paragraph, snippet: values.intro },
      { ...list, list: values.names.map((n, i) => ({ ...item, title: n.title, snippet: n.snippet, reference_indexes: [i % Math.max(1, references.length)] })) },
    ],
    references,
  };
}

/** SerpAPI's Google answer with its AI Overview inline (`serpapi/google-ai-overview.json`). */
export function serpAiOverviewAnswer(values: SerpAiValues) {
  const answer = fixture('serpapi', 'google-ai-overview.json');
  Object.assign(answer.search_parameters, { q: values.q, location_requested: values.location });
  Object.assign(answer.ai_overview, serpAiBlocks(answer.ai_overview, values));
  return answer;
}

/** SerpAPI's Google answer whose AI Overview needs a second call (`serpapi/google-ai-overview-page-token.json`). */
export function serpAiOverviewTokenAnswer(values: { q: string; location: string; pageToken: string; origin: string }) {
  const answer = fixture('serpapi', 'google-ai-overview-page-token.json');
  Object.assign(answer.search_parameters, { q: values.q, location_requested: values.location });
  answer.ai_overview.page_token = values.pageToken;
  answer.ai_overview.serpapi_link = `${values.origin}/search.json?engine=google_ai_overview&page_token=${encodeURIComponent(values.pageToken)}`;
  return answer;
}

/** SerpAPI's Google AI Overview API answer to a page_token (`serpapi/google-ai-overview-api.json`). */
export function serpAiOverviewApiAnswer(values: SerpAiValues) {
  const answer = fixture('serpapi', 'google-ai-overview-api.json');
  Object.assign(answer.ai_overview, serpAiBlocks(answer.ai_overview, values));
  return answer;
}

/** SerpAPI's Google AI Mode answer (`serpapi/google-ai-mode.json`). */
export function serpAiModeAnswer(values: SerpAiValues) {
  const answer = fixture('serpapi', 'google-ai-mode.json');
  Object.assign(answer.search_parameters, { q: values.q, location_requested: values.location });
  Object.assign(answer, serpAiBlocks(answer, values));
  return answer;
}
