// The fakes' answers, each built from a provider's documented example answer (tests/fakes/fixtures, sources in
// fixtures/SOURCES.md): the fixture is loaded fresh and only the values a test needs are changed (ids, content, token
// counts, names, states). A fake never writes an answer's shape itself, so a shape fixed in a fixture is fixed in the fake.
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
