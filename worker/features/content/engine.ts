// The one generation path every content tool runs (the Facebook post, GMB posts, social posts, video scripts, the
// social plan): template without a key, reserve from the meter, call the model, read its JSON, settle or release,
// log usage by tool name; an unusable answer is asked once more, then a template serves (or, for a tool whose spec
// has the client retry, the failure is answered).
import { AiError, aiConfigured, billedOnFailure, chatCompletion, usageEvent } from "../../platform/providers/ai";
import { estimateTokens } from "../../domain/usage-cost";
import type { ParsedAnswer } from "./rules/content";
import { getDb } from "../../platform/db/client";
import { reserveCall, userPayer } from "../../platform/metering/meter";
import { log } from "../../platform/log";
import type { Env, UsageEventMessage } from "../../platform/env";

/** The default model for posts when AI_MODEL_POST is not set (a flash-lite model: docs/providers.md, AI_MODEL_POST). */
export const DEFAULT_POST_MODEL = "google/gemini-2.5-flash-lite";
/** The server gives up before the client's first 15-second attempt does, so the client hears why. */
export const ENGINE_TIMEOUT_MS = 12_000;

/** The benchmark's baseline: the same call with no reservation (what the meter costs is the difference). */
const UNMETERED = { ok: true as const, ticket: { settle: async () => undefined, release: async () => undefined } };

export function postModel(env: Env): string {
  return env.AI_MODEL_POST?.trim() || DEFAULT_POST_MODEL;
}

function engineTimeout(env: Env): number {
  const configured = Number(env.AI_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? Math.min(configured, ENGINE_TIMEOUT_MS) : ENGINE_TIMEOUT_MS;
}

export type GenerationJob<T> = {
  /** Logged in ai_usage_logs.tool_name; a failed call logs `${toolName} (Failed)`. */
  toolName: string;
  /** AI_MODEL_POST unless the tool names its own. */
  model?: string;
  prompt: string;
  maxTokens: number;
  temperature: number;
  parse(content: string): ParsedAnswer<T>;
  template(): T;
  /** Asks of the model after the first one, when an answer was unusable (not after a time-out). */
  retries: number;
  /** "template": a template serves when the model could not (the content suite). "error": the failure is answered. */
  onFailure: "template" | "error";
  notices: { noKey: string; refused: (message: string) => string; unusable: string; timedOut?: string };
  /** Stored as request_data with the prompt. */
  settings: unknown;
  /** The result summary stored in response_data. */
  summary(value: T): unknown;
  /** false only for the benchmark's unmetered baseline (development only). */
  metered?: boolean;
};

export type GenerationOutcome<T> =
  | { ok: true; value: T; source: "ai" | "template"; notice: string | null }
  | { ok: false; status: 502 | 504; code: string; message: string };

/** What the user is told about a provider failure: its kind and status, never the provider's text. */
export function providerFailure(error: AiError): string {
  if (error.kind === "rate_limited") return "The AI service is busy (429)";
  if (error.status) return `The AI service answered with an error (${error.status})`;
  return "The AI service could not be reached";
}

export async function runGeneration<T>(
  env: Env,
  userId: string,
  job: GenerationJob<T>,
  logUsage: (event: UsageEventMessage) => void,
): Promise<GenerationOutcome<T>> {
  const fromTemplate = (notice: string): GenerationOutcome<T> => ({ ok: true, value: job.template(), source: "template", notice });
  if (!aiConfigured(env)) return fromTemplate(job.notices.noKey);

  const model = job.model ?? postModel(env);
  const failedName = `${job.toolName} (Failed)`;
  const requestData = { prompt: job.prompt, settings: job.settings };
  const payer = job.metered === false ? null : await userPayer(env, getDb(env), userId);
  let failure: Extract<GenerationOutcome<T>, { ok: false }> = { ok: false, status: 502, code: "ai_error", message: "API Error: Unknown API error" };

  for (let attempt = 0; attempt <= job.retries; attempt += 1) {
    const reserved = payer ? await reserveCall(env, payer, { kind: "ai", model, prompt: job.prompt, maxTokens: job.maxTokens }) : UNMETERED;
    if (!reserved.ok) return fromTemplate(job.notices.refused(reserved.refusal.message));
    const ticket = reserved.ticket;
    try {
      const result = await chatCompletion(env, {
        model,
        messages: [{ role: "user", content: job.prompt }],
        maxTokens: job.maxTokens,
        temperature: job.temperature,
        json: true,
        timeoutMs: engineTimeout(env),
      });
      await ticket.settle({ kind: "ai", model: result.model, inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens });
      const parsed = job.parse(result.content);
      logUsage(
        usageEvent({
          userId,
          toolName: parsed.ok ? job.toolName : failedName,
          model: result.model,
          prompt: job.prompt,
          response: result.content,
          usage: result.usage,
          requestData,
          responseData: parsed.ok ? { response: result.content, result: job.summary(parsed.value) } : { error: parsed.message, response: result.content, attempt },
        }),
      );
      if (parsed.ok) return { ok: true, value: parsed.value, source: "ai", notice: null };
      failure = { ok: false, status: 502, code: "ai_invalid_response", message: parsed.message };
    } catch (error) {
      const aiError = error instanceof AiError ? error : new AiError("connection", String(error));
      // Possibly billed (time-out, dropped connection, empty answer): the prompt is settled; a refusal is released.
      await (billedOnFailure(aiError) ? ticket.settle({ kind: "ai", model, inputTokens: estimateTokens(job.prompt), outputTokens: 0 }) : ticket.release());
      log.warn("content: AI failed", { tool: job.toolName, kind: aiError.kind, status: aiError.status ?? null, attempt }, aiError);
      logUsage(
        usageEvent({
          userId,
          toolName: failedName,
          model,
          prompt: job.prompt,
          response: "",
          requestData,
          responseData: { error: aiError.message, kind: aiError.kind, status: aiError.status ?? null, attempt },
        }),
      );
      // The provider's own text is logged above, never shown: it can carry account details or internals.
      failure =
        aiError.kind === "timeout"
          ? { ok: false, status: 504, code: "ai_timeout", message: "Request timed out" }
          : aiError.kind === "empty"
            ? { ok: false, status: 502, code: "ai_empty_response", message: "Empty response from API" }
            : { ok: false, status: 502, code: "ai_error", message: `API Error: ${providerFailure(aiError)}` };
      // A time-out has used the time a person waits: no second call.
      if (aiError.kind === "timeout") break;
    }
  }
  if (job.onFailure === "error") return failure;
  return fromTemplate(failure.code === "ai_timeout" ? (job.notices.timedOut ?? job.notices.unusable) : job.notices.unusable);
}
