// Writes one Facebook post: the model on the server (spec part 1 §7), or the template writer when no AI key is
// set or the user's monthly AI budget is used up. Every model call sends one usage event.
import { AiError, aiConfigured, chatCompletion, usageEvent } from "../ai/client";
import { getBudgetState } from "../db/budgets";
import { getDb } from "../db/client";
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
import { budgetExceededMessage } from "../domain/usage-stats";
import type { Env, UsageEventMessage } from "../env";

/** The default model for posts when AI_MODEL_POST is not set (ARCHITECTURE.md: a flash-lite model). */
export const DEFAULT_POST_MODEL = "google/gemini-2.5-flash-lite";
/** The server gives up before the client's first 15-second attempt does, so the client hears why. */
export const POST_SERVER_TIMEOUT_MS = 12_000;
/** Shown on a template post when no AI key is configured: in the customer's terms, never the server's set-up. */
export const TEMPLATE_NOTICE = "This post was written from a template because AI writing is unavailable right now.";

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
): Promise<PostOutcome> {
  if (!aiConfigured(env)) return { ok: true, post: templatePost(business, req), source: "template", notice: TEMPLATE_NOTICE };

  const budget = await getBudgetState(getDb(env), userId);
  if (budget.over) {
    return {
      ok: true,
      post: templatePost(business, req),
      source: "template",
      notice: `${budgetExceededMessage(budget)} This post was written from a template.`,
    };
  }

  const prompt = buildPostPrompt(business, req);
  const model = postModel(env);
  try {
    const result = await chatCompletion(env, {
      model,
      messages: [{ role: "user", content: prompt }],
      maxTokens: POST_MAX_TOKENS,
      temperature: POST_TEMPERATURE,
      json: true,
      timeoutMs: serverTimeout(env),
    });
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
    // The provider's own message (its error.message), without our "API request failed: " prefix.
    const providerMessage = aiError.message.replace(/^API request failed:\s*/, "").replace(/^\d{3}\s+/, "");
    return { ok: false, status: 502, code: "ai_error", message: apiErrorMessage(providerMessage) };
  }
}
