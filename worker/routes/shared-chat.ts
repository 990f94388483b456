// /api/shared/chat/:reportId (public): the chat bootstrap without the system prompt, and a rate-limited, capped reply.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { aiConfigured } from "../ai/client";
import { chatBootstrap, clientIp, loadSubject, readChatRequest } from "../chat/load";
import { dailyCapReached, replyResponse } from "../chat/reply";
import type { AppEnv } from "../context";
import { getDb } from "../db/client";
import { openChatSession } from "../db/chat";
import { countEvent, retryAfterSeconds, type Limit } from "../db/rate-limits";
import type { FallbackReason } from "../domain/chat";
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
    const db = getDb(c.env.DB);
    return c.json({
      ...chatBootstrap(c, loaded.subject),
      prospect: { name: loaded.subject.name },
      daily_cap_reached: await dailyCapReached(db, loaded.subject.reportId),
    });
  })

  .post("/:reportId/messages", tooLarge, async (c) => {
    const reportId = c.req.param("reportId");
    const db = getDb(c.env.DB);
    // Counted before any other work: a flood is refused as cheaply as possible.
    const ipLimit: Limit = { key: `chat-ip:${clientIp(c)}`, ...PUBLIC_CHAT_PER_IP };
    if ((await countEvent(db, ipLimit)) > ipLimit.max) return tooMany(c, ipLimit, CHAT_RATE_LIMITED);

    const body = await readChatRequest(c);
    if ("error" in body) return body.error;
    const loaded = await loadSubject(c, "public");
    if ("error" in loaded) return loaded.error;

    const reportLimit: Limit = { key: `chat-report:${reportId}`, ...PUBLIC_CHAT_PER_REPORT };
    if ((await countEvent(db, reportLimit)) > reportLimit.max) return tooMany(c, reportLimit, CHAT_REPORT_RATE_LIMITED);

    let fallback: FallbackReason | null = null;
    if (!aiConfigured(c.env)) fallback = "not_configured";
    else if (await dailyCapReached(db, reportId)) fallback = "daily_cap";
    else if (body.data.fallback) fallback = "session";

    const visitorId = body.data.session_id ?? crypto.randomUUID();
    const session = await openChatSession(db, reportId, visitorId, new Date().toISOString());
    return replyResponse(c, {
      db,
      subject: loaded.subject,
      turns: body.data.messages,
      audience: "public",
      userId: null,
      fallback,
      session,
    });
  });
