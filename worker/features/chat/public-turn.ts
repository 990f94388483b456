// One message to a shared report's chat, before its reply: the report, the visitor's conversation, the rate limits
// (per address, and per report for a reply that costs AI) and the AI call's reservation, read in one round trip.
import type { Env } from "../../platform/env";
import { getDb } from "../../platform/db/client";
import { retryAfterSeconds, type Limit } from "../../platform/db/rate-limits";
import { ErrorCode } from "../../platform/errors";
import { reserveCallInBatch } from "../../platform/metering/meter";
import { readPublicChatTurn } from "./queries";
import { chatAuditBlock } from "./audit-block";
import { fallbackFor, publicChatReserveCall, type ReplyPlan } from "./reply";
import { CHAT_TEXT, type ChatRequest } from "./rules/chat";
import { PUBLIC_CHAT_PER_IP, PUBLIC_CHAT_PER_REPORT } from "./rules/limits";

export const CHAT_RATE_LIMITED = "Too many messages. Please wait a moment and try again.";
export const CHAT_REPORT_RATE_LIMITED = "This chat is very busy right now. Please try again in a few minutes.";

export type TurnRefusal = { status: 404 | 429; code: string; message: string; retryAfter?: number };

function tooMany(limit: Limit, message: string): TurnRefusal {
  return { status: 429, code: ErrorCode.rateLimited, message, retryAfter: retryAfterSeconds(limit) };
}

/**
 * The reply's plan for a visitor's message, or why it is refused. The counts are taken only for a report (and
 * prospect) that exists: a message to one that does not counts nothing; the reservation only for a message that is not
 * refused.
 */
export async function publicChatTurn(env: Env, reportId: string, request: ChatRequest, address: string): Promise<{ plan: ReplyPlan } | { refusal: TurnRefusal }> {
  const fallback = fallbackFor(env, request.fallback);
  const ipLimit: Limit = { key: `chat-ip:${address}`, ...PUBLIC_CHAT_PER_IP };
  // Fallback turns cost no AI: they do not use up the report's message quota.
  const reportLimit: Limit | null = fallback ? null : { key: `chat-report:${reportId}`, ...PUBLIC_CHAT_PER_REPORT };
  const db = getDb(env);
  const payer = { kind: "visitor", reportId, address } as const;
  const reserveCall = fallback ? null : publicChatReserveCall(env, request.messages);
  const state = await readPublicChatTurn(db, {
    reportId,
    visitorId: request.session_id ?? crypto.randomUUID(),
    ipLimit,
    reportLimit,
    reserve: reserveCall ? (onlyIf) => reserveCallInBatch(env, db, payer, reserveCall, onlyIf) : undefined,
  });
  if (!state.subject) return { refusal: { status: 404, code: ErrorCode.notFound, message: CHAT_TEXT.chatNotFound } };
  if (!state.subject.prospectId) return { refusal: { status: 404, code: ErrorCode.notFound, message: CHAT_TEXT.prospectNotFound } };
  if (state.ipCount > ipLimit.max) return { refusal: tooMany(ipLimit, CHAT_RATE_LIMITED) };
  if (reportLimit && state.reportCount > reportLimit.max) return { refusal: tooMany(reportLimit, CHAT_REPORT_RATE_LIMITED) };
  const plan: ReplyPlan = {
    db,
    subject: state.subject,
    turns: request.messages,
    audience: "public",
    userId: null,
    fallback,
    session: state.session,
    payer,
    auditBlock: chatAuditBlock(state.audit, reportId),
    reserved: state.reserved,
  };
  return { plan };
}
