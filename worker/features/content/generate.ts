// Runs one content tool through the shared engine: its rules (worker/domain) give the prompt, the answer reader, the
// template and the length rules; the engine meters, logs and falls back. The result comes back with its notes.
import type { ContentBusiness, ContentRules, ContentTool } from "./rules/content";
import { CONTENT_TOOL_INFO, TEMPLATE_NOTICE, TIMEOUT_NOTICE, UNUSABLE_NOTICE } from "./rules/content";
import { gmbRules } from "./rules/gmb-generator";
import { socialPlanRules } from "./rules/social-plan";
import { socialPostsRules } from "./rules/social-posts";
import { videoScriptRules } from "./rules/video-script";
import type { Env, UsageEventMessage } from "../../platform/env";
import { runGeneration } from "./engine";
import { auditFindingsFor } from "./findings";

// Each tool's rules, by the tool's name in the URL.
export const CONTENT_RULES: Record<ContentTool, ContentRules<any, any>> = {
  "gmb-post": gmbRules,
  "social-posts": socialPostsRules,
  "video-script": videoScriptRules,
  "social-plan": socialPlanRules,
};

export type ContentOutcome = { result: unknown; title: string; source: "ai" | "template"; notice: string | null; notes: string[] };

export async function generateContent(
  env: Env,
  userId: string,
  tool: ContentTool,
  business: ContentBusiness,
  input: unknown,
  logUsage: (event: UsageEventMessage) => void,
  opts: { now?: Date; metered?: boolean } = {},
): Promise<ContentOutcome> {
  const rules = CONTENT_RULES[tool];
  const now = opts.now ?? new Date();
  const findings = await auditFindingsFor(env, userId);
  /** Length rules after generation, then the stored shape checked: a result that breaks it is unusable. */
  const finish = (raw: unknown) => {
    const fitted = rules.enforce(raw, input);
    const checked = rules.result.safeParse(fitted.result);
    return checked.success ? { ok: true as const, value: { result: checked.data, notes: fitted.notes } } : { ok: false as const, message: "The answer does not have the expected shape" };
  };
  const outcome = await runGeneration(
    env,
    userId,
    {
      toolName: CONTENT_TOOL_INFO[tool].name,
      prompt: rules.prompt(business, input, findings, now),
      maxTokens: rules.maxTokens,
      temperature: rules.temperature,
      parse: (content) => {
        const answer = rules.fromAnswer(content, business, input, now);
        return answer.ok ? finish(answer.value) : answer;
      },
      template: () => {
        const done = finish(rules.template(business, input, now));
        if (!done.ok) throw new Error(`${tool}: the template does not fit its own schema`);
        return done.value;
      },
      retries: 1,
      onFailure: "template",
      notices: { noKey: TEMPLATE_NOTICE, refused: (message) => `${message} This was written from a template.`, unusable: UNUSABLE_NOTICE, timedOut: TIMEOUT_NOTICE },
      settings: input,
      summary: (value) => ({ title: rules.title(value.result, input), notes: value.notes.length }),
      metered: opts.metered,
    },
    logUsage,
  );
  // onFailure "template": the engine always answers content.
  if (!outcome.ok) throw new Error("content engine answered a failure with onFailure=template");
  return { ...outcome.value, title: rules.title(outcome.value.result, input), source: outcome.source, notice: outcome.notice };
}
