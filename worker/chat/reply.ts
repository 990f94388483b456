// One chat reply, shared by the admin and public routes: AI stream or local fallback, lead question, transcript, usage, spend.
import { streamSSE } from "hono/streaming";
import type { Context } from "hono";
import { AiError, chatCompletionStream, promptText, usageEvent, type ChatMessage } from "../ai/client";
import type { AppEnv } from "../context";
import type { Db } from "../db/client";
import { saveChatTurn, type ChatSubject, type VisitorSession } from "../db/chat";
import { addToWindow, currentCount } from "../db/rate-limits";
import {
  CHAT_TEXT,
  extractLead,
  hasLead,
  LEAD_QUESTION,
  systemPromptFor,
  type ChatProspect,
  type ChatReplyResponse,
  type ChatStreamEvent,
  type ChatTurn,
  type FallbackReason,
} from "../domain/chat";
import { fallbackReply } from "../domain/chat-fallback";
import {
  CHAT_MAX_TOKENS,
  CHAT_TEMPERATURE,
  LEAD_ASK_AFTER_ANSWERS,
  MICRO_USD,
  REPORT_DAILY_AI_BUDGET_USD,
} from "../domain/chat-limits";
import { questionsFromText } from "../domain/prospect-rules";
import type { Env } from "../env";

export const DEFAULT_CHAT_MODEL = "google/gemini-2.5-flash";
export const ADMIN_CHAT_TOOL = "Prospect Chat";
export const SHARED_CHAT_TOOL = "Shared Chat";

export function chatModel(env: Env): string {
  return env.AI_MODEL_CHAT?.trim() || DEFAULT_CHAT_MODEL;
}

export function chatProspect(s: ChatSubject): ChatProspect {
  return { name: s.name, company_name: s.companyName, keyword: s.keyword, area: s.area, tag: s.tag, description: s.description };
}

export function subjectQuestions(s: ChatSubject): string[] {
  return questionsFromText(s.questions);
}

/** The daily AI spend counter of one report (millionths of a dollar, UTC day window). */
export function dailySpendKey(reportId: string) {
  return { key: `chat-spend:${reportId}`, windowSeconds: 86_400, max: Math.round(REPORT_DAILY_AI_BUDGET_USD * MICRO_USD) };
}

export function overDailyCap(spentMicroUsd: number, reportId: string): boolean {
  return spentMicroUsd >= dailySpendKey(reportId).max;
}

export async function dailyCapReached(db: Db, reportId: string): Promise<boolean> {
  const limit = dailySpendKey(reportId);
  return (await currentCount(db, limit)) >= limit.max;
}

export type ReplyPlan = {
  db: Db;
  subject: ChatSubject;
  turns: ChatTurn[];
  audience: "admin" | "public";
  userId: string | null;
  /** Known before any AI call: no key, daily cap, or the page already in fallback mode. */
  fallback: FallbackReason | null;
  /** Public chat: the visitor's conversation, for the transcript and the lead question. */
  session: VisitorSession | null;
};

type Emit = (event: ChatStreamEvent) => Promise<void>;

/** Produces the reply through `emit` and returns the final event. Never throws for an AI failure. */
export async function runReply(env: Env, plan: ReplyPlan, emit: Emit): Promise<Extract<ChatStreamEvent, { type: "done" }>> {
  const prospect = chatProspect(plan.subject);
  const question = plan.turns[plan.turns.length - 1]!.content;
  const askedAt = new Date().toISOString();
  let content = "";
  let mode: "ai" | "fallback" = "ai";
  let reason: FallbackReason | undefined;

  if (plan.fallback) {
    mode = "fallback";
    reason = plan.fallback;
    await emit({ type: "start", mode, reason });
    content = fallbackReply(prospect, question);
    await emit({ type: "delta", text: content });
  } else {
    await emit({ type: "start", mode: "ai" });
    const messages: ChatMessage[] = [
      { role: "system", content: systemPromptFor(prospect, subjectQuestions(plan.subject), plan.audience) },
      ...plan.turns.map((t) => ({ role: t.role, content: t.content }) as ChatMessage),
    ];
    const model = chatModel(env);
    const stream = chatCompletionStream(env, { model, messages, maxTokens: CHAT_MAX_TOKENS, temperature: CHAT_TEMPERATURE });
    try {
      let step = await stream.next();
      while (!step.done) {
        content += step.value;
        await emit({ type: "delta", text: step.value });
        step = await stream.next();
      }
      const result = step.value;
      await recordUsage(env, plan, model, messages, result);
    } catch (error) {
      const aiError = error instanceof AiError ? error : null;
      if (!aiError) console.error("chat reply failed", error);
      else console.warn(`chat: AI ${aiError.kind}: ${aiError.message}`);
      mode = "fallback";
      reason = "ai_failed";
      content = aiError?.kind === "empty" ? CHAT_TEXT.emptyReply : fallbackReply(prospect, question);
      await emit({ type: "replace", text: content, reason });
    }
  }

  let leadAsked = false;
  if (plan.session && !plan.session.leadAskedAt && plan.session.answerCount + 1 >= LEAD_ASK_AFTER_ANSWERS) {
    leadAsked = true;
    const ask = `\n\n${LEAD_QUESTION}`;
    content += ask;
    await emit({ type: "delta", text: ask });
  }

  if (plan.session) {
    // Details are read from what the visitor writes once they have been asked (or volunteer them).
    const lead = extractLead(question);
    await saveChatTurn(plan.db, {
      session: plan.session,
      question,
      answer: content,
      askedAt,
      answeredAt: new Date().toISOString(),
      leadAsked,
      lead: hasLead(lead) || (plan.session.leadAskedAt && lead.name) ? lead : null,
    });
  }
  const done = { type: "done" as const, content, mode, ...(reason ? { reason } : {}) };
  await emit(done);
  return done;
}

async function recordUsage(
  env: Env,
  plan: ReplyPlan,
  model: string,
  messages: ChatMessage[],
  result: { content: string; model: string; usage: { input_tokens: number; output_tokens: number; total_tokens: number } },
) {
  const event = usageEvent({
    userId: plan.userId,
    toolName: plan.audience === "admin" ? ADMIN_CHAT_TOOL : SHARED_CHAT_TOOL,
    model: result.model || model,
    prompt: promptText(messages),
    response: result.content,
    usage: result.usage,
    requestData: { report_id: plan.subject.reportId, turns: plan.turns.length, question: plan.turns[plan.turns.length - 1]?.content },
  });
  const tasks: Promise<unknown>[] = [
    env.USAGE_EVENTS.send(event).catch((error) => console.error("chat: usage-events send failed", error)),
  ];
  if (plan.audience === "public") {
    const micro = Math.ceil(event.estimated_cost * MICRO_USD);
    if (micro > 0) tasks.push(addToWindow(plan.db, dailySpendKey(plan.subject.reportId), micro));
  }
  await Promise.all(tasks);
}

/** Server-sent events when the client asks for them, else one JSON body. */
export function wantsStream(c: Context): boolean {
  return (c.req.header("Accept") ?? "").includes("text/event-stream");
}

/** Answers the reply as SSE (uncompressed, unbuffered) or as JSON. */
export async function replyResponse(c: Context<AppEnv>, plan: ReplyPlan): Promise<Response> {
  if (!wantsStream(c)) {
    const done = await runReply(c.env, plan, async () => undefined);
    const body: ChatReplyResponse = { reply: done.content, mode: done.mode, ...(done.reason ? { reason: done.reason } : {}) };
    return c.json(body);
  }
  // A compressing proxy would hold the stream back (honojs/hono#3449): say it must pass as is.
  c.header("Content-Encoding", "identity");
  c.header("Cache-Control", "no-cache, no-transform");
  c.header("X-Accel-Buffering", "no");
  return streamSSE(
    c,
    async (stream) => {
      await runReply(c.env, plan, (event) => stream.writeSSE({ event: event.type, data: JSON.stringify(event) }));
    },
    async (error, stream) => {
      console.error("chat stream failed", error);
      await stream.writeSSE({ event: "error", data: JSON.stringify({ message: CHAT_TEXT.sendFailed }) });
    },
  );
}
