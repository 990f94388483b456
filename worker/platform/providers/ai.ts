// The worker's only door to the OpenAI-compatible AI endpoint (base URL, key, time-out, error mapping): one chat
// completion, streamed or not, typed errors, usage events. Callers reserve from the meter first (worker/platform/metering).
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  RateLimitError,
} from 'openai';
import type { Env, UsageEventMessage } from '../env';
import { costFor, estimateTokens } from '../../domain/usage-cost';

export const DEFAULT_AI_BASE_URL = 'https://openrouter.ai/api/v1';
export const DEFAULT_AI_TIMEOUT_MS = 30_000;
export const DEFAULT_APP_ORIGIN = 'https://porchlight.app';
/** Spec part 2 §8 wording for an empty reply. */
export const EMPTY_RESPONSE_MESSAGE = 'Empty response received from OpenRouter';
/** request_data / response_data are cut to this many characters so a message stays far below the queue's 128 KB. */
export const USAGE_DATA_MAX_CHARS = 20_000;

export type AiErrorKind = 'timeout' | 'http' | 'rate_limited' | 'empty' | 'connection';

export class AiError extends Error {
  override name = 'AiError';
  readonly kind: AiErrorKind;
  readonly status?: number;
  /** A stream that failed after the provider accepted it: the provider bills what it processed. */
  streamOpened = false;

  constructor(kind: AiErrorKind, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options?.status !== undefined) this.status = options.status;
  }
}

export type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  /** Ask for a JSON object (`response_format: {type: 'json_object'}`). */
  json?: boolean;
  /** Overrides AI_TIMEOUT_MS for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface AiUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** True when the provider sent no usage and the figures come from `estimateTokens`. */
  estimated: boolean;
}

export interface ChatCompletionResult {
  content: string;
  model: string;
  usage: AiUsage;
}

/** True when an AI key is set; otherwise AI features use template content or the local fallback. */
export function aiConfigured(env: Env): boolean {
  return typeof env.AI_API_KEY === 'string' && env.AI_API_KEY.trim() !== '';
}

/**
 * Whether a failed call may still have been billed: the provider accepted it (a stream that broke, an empty answer)
 * or the connection went away mid-call (time-out, dropped). An explicit refusal (4xx, 5xx, 429) is not billed.
 */
export function billedOnFailure(error: AiError): boolean {
  return error.streamOpened || error.kind === "timeout" || error.kind === "connection" || error.kind === "empty";
}

function timeoutFrom(env: Env, override?: number): number {
  const candidate = override ?? Number(env.AI_TIMEOUT_MS ?? DEFAULT_AI_TIMEOUT_MS);
  return Number.isFinite(candidate) && candidate > 0 ? candidate : DEFAULT_AI_TIMEOUT_MS;
}

function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The prompt as one text, for token estimates and usage logs. */
export function promptText(messages: ChatMessage[]): string {
  return messages.map(messageText).join('\n');
}

export function toAiError(error: unknown): AiError {
  if (error instanceof AiError) return error;
  // Order matters: the timeout and abort classes are subclasses of the connection / API classes.
  if (error instanceof APIConnectionTimeoutError) {
    return new AiError('timeout', 'AI request timed out', { cause: error });
  }
  if (error instanceof APIUserAbortError) {
    // The caller cut the call short (usually its own deadline): the same outcome as a time-out.
    return new AiError('timeout', 'AI request was aborted', { cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new AiError('connection', `API request failed: ${error.message}`, { cause: error });
  }
  if (error instanceof RateLimitError || (error instanceof APIError && error.status === 429)) {
    return new AiError('rate_limited', `API request failed: ${error.message}`, { status: 429, cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    return new AiError('http', `API request failed: ${error.message}`, { status: error.status, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AiError('connection', `API request failed: ${message}`, { cause: error });
}

function openAiClient(env: Env, timeoutMs: number): OpenAI {
  return new OpenAI({
    baseURL: env.AI_BASE_URL?.trim() || DEFAULT_AI_BASE_URL,
    apiKey: env.AI_API_KEY,
    timeout: timeoutMs,
    maxRetries: 0,
    defaultHeaders: {
      'HTTP-Referer': env.APP_ORIGIN?.trim() || DEFAULT_APP_ORIGIN,
      'X-Title': 'Porchlight',
    },
  });
}

/** One non-streaming chat completion. Never retries: retries belong to the queue. Throws AiError. */
export async function chatCompletion(env: Env, request: ChatCompletionRequest): Promise<ChatCompletionResult> {
  if (!aiConfigured(env)) {
    throw new AiError('connection', 'API request failed: AI is not configured (AI_API_KEY is not set)');
  }
  const client = openAiClient(env, timeoutFrom(env, request.timeoutMs));

  let completion: OpenAI.Chat.ChatCompletion;
  try {
    completion = await client.chat.completions.create(
      {
        model: request.model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        temperature: request.temperature,
        ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
      },
      request.signal ? { signal: request.signal } : undefined,
    );
  } catch (error) {
    throw toAiError(error);
  }

  const content = completion.choices?.[0]?.message?.content ?? '';
  if (content.trim() === '') throw new AiError('empty', EMPTY_RESPONSE_MESSAGE);

  return { content, model: completion.model || request.model, usage: usageOf(completion.usage, request.messages, content) };
}

/** The provider's token counts, or the spec's estimate when it sent none. */
function usageOf(provided: OpenAI.CompletionUsage | undefined | null, messages: ChatMessage[], content: string): AiUsage {
  if (!provided) return estimatedUsage(promptText(messages), content);
  return {
    input_tokens: provided.prompt_tokens,
    output_tokens: provided.completion_tokens,
    total_tokens: provided.total_tokens ?? provided.prompt_tokens + provided.completion_tokens,
    estimated: false,
  };
}

/** Usage figures from the spec's estimate (length / 4, rounded up). */
export function estimatedUsage(prompt: string, response: string): AiUsage {
  const input_tokens = estimateTokens(prompt);
  const output_tokens = estimateTokens(response);
  return { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens, estimated: true };
}

export interface UsageEventInput {
  userId: string | null;
  toolName: string;
  model: string;
  prompt: string;
  response: string;
  /** From `chatCompletion`; estimated from prompt and response when absent. */
  usage?: Omit<AiUsage, 'estimated'> & { estimated?: boolean };
  /** Stored as request_data; defaults to the prompt. Objects are JSON-encoded. */
  requestData?: unknown;
  /** Stored as response_data; defaults to the response. Objects are JSON-encoded. */
  responseData?: unknown;
  /** The cost when it is not tokens at a model's price (voice by characters, search by call). */
  costUsd?: number;
}

function storedData(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > USAGE_DATA_MAX_CHARS ? text.slice(0, USAGE_DATA_MAX_CHARS) : text;
}

/** One `usage-events` message (one ai_usage_logs row) with a fresh event_id for idempotent inserts. */
export function usageEvent(input: UsageEventInput): UsageEventMessage {
  const usage = input.usage ?? estimatedUsage(input.prompt, input.response);
  return {
    event_id: crypto.randomUUID(),
    user_id: input.userId,
    tool_name: input.toolName,
    model: input.model,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    estimated_cost: input.costUsd ?? costFor(input.model, usage.input_tokens, usage.output_tokens),
    request_data: storedData(input.requestData === undefined ? input.prompt : input.requestData),
    response_data: storedData(input.responseData === undefined ? input.response : input.responseData),
    created_at: new Date().toISOString(),
    tokens_estimated: usage.estimated ?? false,
  };
}

/**
 * One streamed chat completion: yields the text as it arrives and returns the whole reply with the
 * provider's token counts (`stream_options.include_usage`). The time-out covers the wait for the
 * first token and every later gap between chunks. Never retries. Throws AiError (an empty reply too).
 */
export async function* chatCompletionStream(
  env: Env,
  request: Omit<ChatCompletionRequest, 'json'>,
): AsyncGenerator<string, ChatCompletionResult, void> {
  if (!aiConfigured(env)) {
    throw new AiError('connection', 'API request failed: AI is not configured (AI_API_KEY is not set)');
  }
  const timeoutMs = timeoutFrom(env, request.timeoutMs);
  const client = openAiClient(env, timeoutMs);
  const idle = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      idle.abort();
    }, timeoutMs);
  };
  const onCallerAbort = () => idle.abort();
  request.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let content = '';
  let model = request.model;
  let provided: OpenAI.CompletionUsage | undefined;
  let opened = false;
  arm();
  try {
    const stream = await client.chat.completions.create(
      {
        model: request.model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        temperature: request.temperature,
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: idle.signal },
    );
    opened = true;
    for await (const chunk of stream) {
      arm();
      if (chunk.model) model = chunk.model;
      if (chunk.usage) provided = chunk.usage;
      const delta = chunk.choices?.[0]?.delta?.content;
      if (delta) {
        content += delta;
        yield delta;
      }
    }
  } catch (error) {
    const failure = timedOut ? new AiError('timeout', 'AI request timed out', { cause: error }) : toAiError(error);
    failure.streamOpened = opened;
    throw failure;
  } finally {
    if (timer) clearTimeout(timer);
    request.signal?.removeEventListener('abort', onCallerAbort);
  }
  if (content.trim() === '') throw new AiError('empty', EMPTY_RESPONSE_MESSAGE);
  return { content, model, usage: usageOf(provided, request.messages, content) };
}
