// Writes one Facebook post through the content engine (worker/features/content/engine.ts): the spec's prompt and answer
// (part 1 §7), the template writer without a key or past the allowance. The client retries a time-out (spec §9),
// so a failure is answered rather than replaced by a template.
import { runGeneration } from "./engine";
import {
  POST_MAX_TOKENS,
  POST_TEMPERATURE,
  POST_TOOL_NAME,
  buildPostPrompt,
  parsePostAnswer,
  templatePost,
  type ParsedPost,
  type PostBusiness,
  type PostRequest,
} from "./rules/facebook-post";
import type { Env, UsageEventMessage } from "../../platform/env";

/** Shown on a template post when no AI key is configured: in the customer's terms, never the server's set-up. */
export const TEMPLATE_NOTICE = "This post was written from a template because AI writing is unavailable right now.";

export type PostOutcome =
  | { ok: true; post: ParsedPost; source: "ai" | "template"; notice: string | null }
  | { ok: false; status: 502 | 504; code: string; message: string };

export async function generatePost(
  env: Env,
  userId: string,
  business: PostBusiness,
  req: PostRequest,
  logUsage: (event: UsageEventMessage) => void,
  /** false only for the benchmark's unmetered baseline (development only, see routes/posts.ts). */
  metered = true,
): Promise<PostOutcome> {
  const outcome = await runGeneration(
    env,
    userId,
    {
      toolName: POST_TOOL_NAME,
      prompt: buildPostPrompt(business, req),
      maxTokens: POST_MAX_TOKENS,
      temperature: POST_TEMPERATURE,
      parse: (content) => {
        const parsed = parsePostAnswer(content, business.company_category);
        return parsed.ok ? { ok: true, value: parsed.post } : parsed;
      },
      template: () => templatePost(business, req),
      retries: 0,
      onFailure: "error",
      notices: { noKey: TEMPLATE_NOTICE, refused: (message) => `${message} This post was written from a template.`, unusable: TEMPLATE_NOTICE },
      settings: { ...req },
      summary: (post) => ({ title: post.title, contentLength: post.content.length, tagsCount: post.tags.length }),
      metered,
    },
    logUsage,
  );
  return outcome.ok ? { ok: true, post: outcome.value, source: outcome.source, notice: outcome.notice } : outcome;
}
