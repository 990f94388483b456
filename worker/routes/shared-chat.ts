// /api/shared/chat/:reportId (public): the chat bootstrap without the system prompt, and a rate-limited, capped reply.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { aiConfigured } from "../ai/client";
import { chatBootstrap, clientIp, loadSubject, readChatRequest, ReportId } from "../chat/load";
import { dailyCapReached, dailySpendKey, overDailyCap, replyResponse } from "../chat/reply";
import type { AppEnv } from "../context";
import { getDb } from "../db/client";
import { readPublicChatState } from "../db/chat";
import { retryAfterSeconds, type Limit } from "../db/rate-limits";
import { CHAT_TEXT, type FallbackReason } from "../domain/chat";
import { CHAT_BODY_MAX_BYTES, PUBLIC_CHAT_PER_IP, PUBLIC_CHAT_PER_REPORT } from "../domain/chat-limits";
import { apiError, ErrorCode } from "../errors";

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
    const db = getDb(c.env);
    const ipLimit: Limit = { key: `chat-ip:${clientIp(c)}`, ...PUBLIC_CHAT_PER_IP };
    const reportLimit: Limit = { key: `chat-report:${reportId}`, ...PUBLIC_CHAT_PER_REPORT };
    const spend = dailySpendKey(reportId);
    // One D1 round trip before the AI call: it sits on the time to the first streamed word.
    const state = await readPublicChatState(db, {
      reportId,
      visitorId: body.data.session_id ?? crypto.randomUUID(),
      ipLimit,
      reportLimit,
      spendKey: spend.key,
      spendWindowSeconds: spend.windowSeconds,
    });
    if (state.ipCount > ipLimit.max) return tooMany(c, ipLimit, CHAT_RATE_LIMITED);
    if (!state.subject) return apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.chatNotFound);
    if (!state.subject.prospectId) return apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.prospectNotFound);
    if (state.reportCount > reportLimit.max) return tooMany(c, reportLimit, CHAT_REPORT_RATE_LIMITED);

    let fallback: FallbackReason | null = null;
    if (!aiConfigured(c.env)) fallback = "not_configured";
    else if (overDailyCap(state.spend, reportId)) fallback = "daily_cap";
    else if (body.data.fallback) fallback = "session";

    return replyResponse(c, {
      db,
      subject: state.subject,
      turns: body.data.messages,
      audience: "public",
      userId: null,
      fallback,
      session: state.session,
    });
  });
