// Writes one Facebook post: the model on the server (spec part 1 §7), metered (reserve → call → settle | release),
// or the template writer when no AI key is set or the meter refuses (allowance, daily ceiling). Every model call
// sends one usage event.
import { AiError, aiConfigured, billedOnFailure, chatCompletion, usageEvent } from "../providers/ai";
import { estimateTokens } from "../domain/usage-cost";
import { getDb } from "../db/client";
import { reserveCall, userPayer } from "../metering/meter";
import { log } from "../log";
import {
  EMPTY_RESPONSE_MESSAGE,
  POST_MAX_TOKENS,
  POST_TEMPERATURE,
  POST_TOOL_NAME,
  POST_TOOL_NAME_FAILED,
  apiErrorMessage,
  buildPostPrompt,
  parsePostAnswer,
  templatePost,
  type ParsedPost,
  type PostBusiness,
  type PostRequest,
} from "../domain/facebook-post";
import type { Env, UsageEventMessage } from "../env";

/** The default model for posts when AI_MODEL_POST is not set (ARCHITECTURE.md: a flash-lite model). */
export const DEFAULT_POST_MODEL = "google/gemini-2.5-flash-lite";
/** The server gives up before the client's first 15-second attempt does, so the client hears why. */
export const POST_SERVER_TIMEOUT_MS = 12_000;
/** Shown on a template post when no AI key is configured: in the customer's terms, never the server's set-up. */
export const TEMPLATE_NOTICE = "This post was written from a template because AI writing is unavailable right now.";

/** The benchmark's baseline: the same post with no reservation (what the meter costs is the difference). */
const UNMETERED = { ok: true as const, ticket: { settle: async () => undefined, release: async () => undefined } };

export type PostOutcome =
  | { ok: true; post: ParsedPost; source: "ai" | "template"; notice: string | null }
  | { ok: false; status: 502 | 504; code: string; message: string };

export function postModel(env: Env): string {
  return env.AI_MODEL_POST?.trim() || DEFAULT_POST_MODEL;
}

function serverTimeout(env: Env): number {
  const configured = Number(env.AI_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? Math.min(configured, POST_SERVER_TIMEOUT_MS) : POST_SERVER_TIMEOUT_MS;
}

/** What request_data keeps (spec §7: prompt and settings). */
function requestData(prompt: string, req: PostRequest) {
  return { prompt, settings: { ...req } };
}

export async function generatePost(
  env: Env,
  userId: string,
  business: PostBusiness,
  req: PostRequest,
  logUsage: (event: UsageEventMessage) => void,
  /** false only for the benchmark's unmetered baseline (development only, see routes/posts.ts). */
  metered = true,
): Promise<PostOutcome> {
  if (!aiConfigured(env)) return { ok: true, post: templatePost(business, req), source: "template", notice: TEMPLATE_NOTICE };

  const prompt = buildPostPrompt(business, req);
  const model = postModel(env);
  const reserved = metered
    ? await reserveCall(env, await userPayer(env, getDb(env), userId), { kind: "ai", model, prompt, maxTokens: POST_MAX_TOKENS })
    : UNMETERED;
  if (!reserved.ok) {
    return { ok: true, post: templatePost(business, req), source: "template", notice: `${reserved.refusal.message} This post was written from a template.` };
  }
  const ticket = reserved.ticket;
  try {
    const result = await chatCompletion(env, {
      model,
      messages: [{ role: "user", content: prompt }],
      maxTokens: POST_MAX_TOKENS,
      temperature: POST_TEMPERATURE,
      json: true,
      timeoutMs: serverTimeout(env),
    });
    await ticket.settle({ kind: "ai", model: result.model, inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens });
    const parsed = parsePostAnswer(result.content, business.company_category);
    logUsage(
      usageEvent({
        userId,
        toolName: parsed.ok ? POST_TOOL_NAME : POST_TOOL_NAME_FAILED,
        model: result.model,
        prompt,
        response: result.content,
        usage: result.usage,
        requestData: requestData(prompt, req),
        responseData: parsed.ok
          ? { response: result.content, result: { title: parsed.post.title, contentLength: parsed.post.content.length, tagsCount: parsed.post.tags.length } }
          : { error: parsed.message, response: result.content },
      }),
    );
    if (!parsed.ok) return { ok: false, status: 502, code: "ai_invalid_response", message: parsed.message };
    return { ok: true, post: parsed.post, source: "ai", notice: null };
  } catch (error) {
    const aiError = error instanceof AiError ? error : new AiError("connection", String(error));
    // Possibly billed (time-out, dropped connection, empty answer): the prompt is settled; a refusal is released.
    await (billedOnFailure(aiError) ? ticket.settle({ kind: "ai", model, inputTokens: estimateTokens(prompt), outputTokens: 0 }) : ticket.release());
    log.warn("post: AI failed", { kind: aiError.kind, status: aiError.status ?? null }, aiError);
    logUsage(
      usageEvent({
        userId,
        toolName: POST_TOOL_NAME_FAILED,
        model,
        prompt,
        response: "",
        requestData: requestData(prompt, req),
        responseData: { error: aiError.message, kind: aiError.kind, status: aiError.status ?? null },
      }),
    );
    if (aiError.kind === "timeout") return { ok: false, status: 504, code: "ai_timeout", message: "Request timed out" };
    if (aiError.kind === "empty") return { ok: false, status: 502, code: "ai_empty_response", message: EMPTY_RESPONSE_MESSAGE };
    // The provider's own text is logged above, never shown: it can carry account details or internals.
    return { ok: false, status: 502, code: "ai_error", message: apiErrorMessage(providerFailure(aiError)) };
  }
}

/** What the user is told about a provider failure: its kind and status, never the provider's text. */
export function providerFailure(error: AiError): string {
  if (error.kind === "rate_limited") return "The AI service is busy (429)";
  if (error.status) return `The AI service answered with an error (${error.status})`;
  return "The AI service could not be reached";
}
