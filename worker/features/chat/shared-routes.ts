// /api/shared/chat/:reportId (public): the chat bootstrap without the system prompt, and a rate-limited, capped reply.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { aiConfigured } from "../../platform/providers/ai";
import { chatBootstrap, clientIp, loadSubject, readChatRequest, ReportId } from "./load";
import { dailyCapReached, publicChatReserveCall, replyResponse } from "./reply";
import { reserveCallInBatch } from "../../platform/metering/meter";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { readPublicChatTurn } from "./queries";
import { chatAuditBlock } from "./audit-block";
import { retryAfterSeconds, type Limit } from "../../platform/db/rate-limits";
import { CHAT_TEXT, type FallbackReason } from "./rules/chat";
import { CHAT_BODY_MAX_BYTES, PUBLIC_CHAT_PER_IP, PUBLIC_CHAT_PER_REPORT } from "./rules/limits";
import { apiError, ErrorCode } from "../../platform/errors";

export const CHAT_RATE_LIMITED = "Too many messages. Please wait a moment and try again.";
export const CHAT_REPORT_RATE_LIMITED = "This chat is very busy right now. Please try again in a few minutes.";

const tooLarge = bodyLimit({
  maxSize: CHAT_BODY_MAX_BYTES,
  onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, "The conversation is too large to send."),
});

function tooMany(c: Context, limit: Limit, message: string) {
  c.header("Retry-After", String(retryAfterSeconds(limit)));
  return apiError(c, 429, ErrorCode.rateLimited, message);
}

export const sharedChatRoutes = new Hono<AppEnv>()
  .get("/:reportId", async (c) => {
    const loaded = await loadSubject(c, "public");
    if ("error" in loaded) return loaded.error;
    const db = getDb(c.env);
    return c.json({
      ...chatBootstrap(c, loaded.subject),
      prospect: { name: loaded.subject.name },
      daily_cap_reached: await dailyCapReached(db, loaded.subject.reportId),
    });
  })

  .post("/:reportId/messages", tooLarge, async (c) => {
    const body = await readChatRequest(c);
    if ("error" in body) return body.error;
    const reportId = c.req.param("reportId");
    if (!ReportId.safeParse(reportId).success) return apiError(c, 400, "invalid_chat_id", CHAT_TEXT.invalidLink);
    let fallback: FallbackReason | null = null;
    if (!aiConfigured(c.env)) fallback = "not_configured";
    else if (body.data.fallback) fallback = "session";

    const address = clientIp(c);
    const ipLimit: Limit = { key: `chat-ip:${address}`, ...PUBLIC_CHAT_PER_IP };
    // Fallback turns cost no AI: they do not use up the report's message quota.
    const reportLimit: Limit | null = fallback ? null : { key: `chat-report:${reportId}`, ...PUBLIC_CHAT_PER_REPORT };
    const db = getDb(c.env);
    const payer = { kind: "visitor", reportId, address } as const;
    // One round trip before the AI call: the report, the conversation, the counts, the audit and the call's
    // reservation. The counts are taken only for a report (and prospect) that exists: a message to one that does not
    // counts nothing; the reservation only for a message that is not refused.
    const reserveCall = fallback ? null : publicChatReserveCall(c.env, body.data.messages);
    const state = await readPublicChatTurn(db, {
      reportId,
      visitorId: body.data.session_id ?? crypto.randomUUID(),
      ipLimit,
      reportLimit,
      reserve: reserveCall ? (onlyIf) => reserveCallInBatch(c.env, db, payer, reserveCall, onlyIf) : undefined,
    });
    if (!state.subject) return apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.chatNotFound);
    if (!state.subject.prospectId) return apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.prospectNotFound);
    if (state.ipCount > ipLimit.max) return tooMany(c, ipLimit, CHAT_RATE_LIMITED);
    if (reportLimit && state.reportCount > reportLimit.max) return tooMany(c, reportLimit, CHAT_REPORT_RATE_LIMITED);

    return replyResponse(c, {
      db,
      subject: state.subject,
      turns: body.data.messages,
      audience: "public",
      userId: null,
      fallback,
      session: state.session,
      payer,
      auditBlock: chatAuditBlock(state.audit, reportId),
      reserved: state.reserved,
    });
  });
