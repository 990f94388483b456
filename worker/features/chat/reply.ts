// One chat reply, shared by the admin and public routes: AI stream or local fallback, lead question, transcript, usage, spend.
import { waitUntil } from "../../platform/context";
import { streamSSE } from "hono/streaming";
import type { Context } from "hono";
import { AiError, aiConfigured, billedOnFailure, chatCompletionStream, promptText, usageEvent, type ChatMessage } from "../../platform/providers/ai";
import type { AppEnv } from "../../platform/context";
import type { Db } from "../../platform/db/client";
import { saveChatTurn, type ChatSubject, type VisitorSession } from "./queries";
import { readCounter } from "../../platform/metering/store";
import { estimateTokens } from "../../domain/usage-cost";
import { estimateMicro, REPORT_DAILY_USD, reportCapKey, toMicro, type CapScope, type PaidCall, type Payer } from "../../domain/metering";
import { reserveCall, type ReserveResult } from "../../platform/metering/meter";
import { log } from "../../platform/log";
import { emitProspectEvent } from "../../platform/notifications/emit";
import { signVoiceLines, type VoiceScope } from "./voice-lines";
import { storeChatAuditBlock, type ChatAuditBlock } from "./audit-block";
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
} from "./rules/chat";
import { fallbackReply } from "./rules/fallback";
import { CHAT_MAX_TOKENS, CHAT_SYSTEM_PROMPT_RESERVE_CHARS, CHAT_TEMPERATURE, LEAD_ASK_AFTER_ANSWERS } from "./rules/limits";
import { questionsFromText } from "../prospects/rules/prospect";
import type { Env } from "../../platform/env";

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

/** Why a reply is the local responder's before any AI call: no key, or the page already in fallback mode. */
export function fallbackFor(env: Env, asked: boolean | undefined): FallbackReason | null {
  if (!aiConfigured(env)) return "not_configured";
  return asked ? "session" : null;
}

/** True once the report's meter counter (public chat and its voice, today) has no room left. */
export async function dailyCapReached(db: Db, reportId: string, now = new Date()): Promise<boolean> {
  const counter = await readCounter(db, reportCapKey(reportId, now));
  return counter.reservedMicro + counter.settledMicro >= toMicro(REPORT_DAILY_USD);
}

/** The chat's fallback reason for a cap the meter refused. */
const REFUSAL_REASON: Record<CapScope | "email", FallbackReason> = {
  user: "budget",
  // Chat never runs as a widget lead's work; kept for the record's completeness.
  widget: "budget",
  report: "daily_cap",
  address: "address_cap",
  global: "spend_ceiling",
  // The chat is the agency's (admins, shared reports' visitors): never drawn from the Free pool nor refused for an
  // unconfirmed address; kept for the record's completeness.
  free: "budget",
  email: "budget",
};

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
  /** Who the AI call is charged to: the admin who asked, or the shared report's visitor (by address). */
  payer: Payer;
  /** The prospect's latest audit as the system prompt carries it, read in the request's first batch. */
  auditBlock: ChatAuditBlock;
  /** Public chat: the AI call's reservation, taken in that batch at an upper bound of the prompt (see runReply). */
  reserved?: ReserveResult | null;
};

/** Whether the reservation taken in the request's first batch covers the call's real estimate (no round trip then). */
function coveredEarly(plan: ReplyPlan, call: PaidCall): boolean {
  return plan.reserved?.ok === true && estimateMicro(call) <= plan.reserved.ticket.reservation.amountMicro;
}

/** The call the public chat reserves in its first batch: the turns as sent, and the system prompt at its bound. */
export function publicChatReserveCall(env: Env, turns: ChatTurn[]): PaidCall {
  const prompt = promptText([{ role: "system", content: " ".repeat(CHAT_SYSTEM_PROMPT_RESERVE_CHARS) }, ...turns.map((t) => ({ role: t.role, content: t.content }) as ChatMessage)]);
  return { kind: "ai", model: chatModel(env), prompt, maxTokens: CHAT_MAX_TOKENS };
}

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
    const messages: ChatMessage[] = [
      { role: "system", content: systemPromptFor(prospect, subjectQuestions(plan.subject), plan.audience, plan.auditBlock.text) },
      ...plan.turns.map((t) => ({ role: t.role, content: t.content }) as ChatMessage),
    ];
    const model = chatModel(env);
    const prompt = promptText(messages);
    // The reservation taken in the request's first batch when it covers this call; else that one given back and one
    // taken now (a refusal at the batch's upper bound is tried again at the real estimate: the bound never refuses a
    // reply that fits).
    const call: PaidCall = { kind: "ai", model, prompt, maxTokens: CHAT_MAX_TOKENS };
    const early = coveredEarly(plan, call) ? plan.reserved! : null;
    if (!early && plan.reserved?.ok) await plan.reserved.ticket.release();
    const reserved = early ?? (await reserveCall(env, plan.payer, call));
    if (!reserved.ok) {
      // Refused by a cap: the provider is never called; the local responder answers and the page says why.
      mode = "fallback";
      reason = REFUSAL_REASON[reserved.refusal.scope];
      await emit({ type: "start", mode, reason });
      content = fallbackReply(prospect, question);
      await emit({ type: "delta", text: content });
    } else {
      const ticket = reserved.ticket;
      await emit({ type: "start", mode: "ai" });
      const stream = chatCompletionStream(env, { model, messages, maxTokens: CHAT_MAX_TOKENS, temperature: CHAT_TEMPERATURE });
      try {
        let step = await stream.next();
        while (!step.done) {
          content += step.value;
          await emit({ type: "delta", text: step.value });
          step = await stream.next();
        }
        const result = step.value;
        await Promise.all([
          ticket.settle({ kind: "ai", model: result.model || model, inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens }),
          recordUsage(env, plan, model, prompt, result),
        ]);
      } catch (error) {
        // A call that may have been billed (a stream that broke, a dropped connection) settles the prompt and what
        // came; an explicit refusal (5xx, 429) was not billed: release.
        const aiError = error instanceof AiError ? error : null;
        await (!aiError || billedOnFailure(aiError) || content
          ? ticket.settle({ kind: "ai", model, inputTokens: estimateTokens(prompt), outputTokens: estimateTokens(content) })
          : ticket.release());
        if (!aiError) log.error("chat reply failed", {}, error);
        else log.warn("chat: AI failed", { kind: aiError.kind, status: aiError.status ?? null }, aiError);
        mode = "fallback";
        reason = "ai_failed";
        content = aiError?.kind === "empty" ? CHAT_TEXT.emptyReply : fallbackReply(prospect, question);
        await emit({ type: "replace", text: content, reason });
      }
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
    // The agency hears of contact details at once (alert + chat.lead_captured); once per visitor and details.
    if (hasLead(lead) && plan.subject.prospectId) {
      await emitProspectEvent(env, {
        prospectId: plan.subject.prospectId,
        reportId: plan.subject.reportId,
        alert: "chat_lead",
        webhook: "chat.lead_captured",
        at: askedAt,
        dedupeKey: `chat_lead:${plan.subject.reportId}:${plan.session.visitorId}:${lead.email ?? ""}:${lead.phone ?? ""}`,
        data: { name: prospect.name, contact_name: lead.name, email: lead.email, phone: lead.phone },
      });
    }
  }
  const scope: VoiceScope = plan.audience === "admin" && plan.userId ? { kind: "user", userId: plan.userId } : { kind: "report", reportId: plan.subject.reportId };
  const voice = await signVoiceLines(env, scope, content);
  const done = { type: "done" as const, content, mode, ...(reason ? { reason } : {}), voice };
  await emit(done);
  return done;
}

async function recordUsage(
  env: Env,
  plan: ReplyPlan,
  model: string,
  prompt: string,
  result: { content: string; model: string; usage: { input_tokens: number; output_tokens: number; total_tokens: number } },
) {
  const event = usageEvent({
    userId: plan.userId,
    toolName: plan.audience === "admin" ? ADMIN_CHAT_TOOL : SHARED_CHAT_TOOL,
    model: result.model || model,
    prompt,
    response: result.content,
    usage: result.usage,
    // Never the conversation itself: a visitor's messages often hold phone numbers and emails.
    requestData: { report_id: plan.subject.reportId, turns: plan.turns.length },
    responseData: { characters: result.content.length },
  });
  await env.USAGE_EVENTS.send(event).catch((error) => log.error("chat: usage-events send failed", { eventId: event.event_id }, error));
}

/**
 * The reply, kept alive past the client: the runtime cancels a request's work when its client disconnects unless it
 * is in `waitUntil`, and a reply cut there would skip the meter's settle (the reservation then waits for the sweep),
 * the usage row and the transcript.
 */
function finishing<T>(c: Context<AppEnv>, plan: ReplyPlan, reply: Promise<T>): Promise<T> {
  // The audit's block is stored after the reply: a cache for the next message, never on the way to the AI call.
  waitUntil(c, reply.catch(() => undefined).then(() => storeChatAuditBlock(plan.db, plan.auditBlock)));
  return reply;
}

/** Server-sent events when the client asks for them, else one JSON body. */
export function wantsStream(c: Context): boolean {
  return (c.req.header("Accept") ?? "").includes("text/event-stream");
}

/** Answers the reply as SSE (uncompressed, unbuffered) or as JSON. */
export async function replyResponse(c: Context<AppEnv>, plan: ReplyPlan): Promise<Response> {
  if (!wantsStream(c)) {
    const done = await finishing(c, plan, runReply(c.env, plan, async () => undefined));
    const body: ChatReplyResponse = { reply: done.content, mode: done.mode, ...(done.reason ? { reason: done.reason } : {}), voice: done.voice };
    return c.json(body);
  }
  // A compressing proxy would hold the stream back (honojs/hono#3449): say it must pass as is.
  c.header("Content-Encoding", "identity");
  c.header("Cache-Control", "no-cache, no-transform");
  c.header("X-Accel-Buffering", "no");
  return streamSSE(
    c,
    async (stream) => {
      // A reader that goes away stops nothing: the reply runs to its end (writes to a closed stream are dropped).
      await finishing(c, plan, runReply(c.env, plan, (event) => stream.writeSSE({ event: event.type, data: JSON.stringify(event) })));
    },
    async (error, stream) => {
      log.error("chat stream failed", {}, error);
      await stream.writeSSE({ event: "error", data: JSON.stringify({ message: CHAT_TEXT.sendFailed }) });
    },
  );
}
