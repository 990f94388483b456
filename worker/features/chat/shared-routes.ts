// /api/shared/chat/:reportId (public): the chat bootstrap without the system prompt, and a rate-limited, capped reply.
import { Hono } from "hono";
import { chatBodyLimit, chatBootstrap, clientIp, loadSubject, readChatRequest, ReportId } from "./load";
import { dailyCapReached, replyResponse } from "./reply";
import { publicChatTurn } from "./public-turn";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { CHAT_TEXT } from "./rules/chat";
import { apiError } from "../../platform/errors";


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

  .post("/:reportId/messages", chatBodyLimit, async (c) => {
    const body = await readChatRequest(c);
    if ("error" in body) return body.error;
    const reportId = c.req.param("reportId");
    if (!ReportId.safeParse(reportId).success) return apiError(c, 400, "invalid_chat_id", CHAT_TEXT.invalidLink);
    const turn = await publicChatTurn(c.env, reportId, body.data, clientIp(c));
    if ("plan" in turn) return replyResponse(c, turn.plan);
    if (turn.refusal.retryAfter !== undefined) c.header("Retry-After", String(turn.refusal.retryAfter));
    return apiError(c, turn.refusal.status, turn.refusal.code, turn.refusal.message);
  });
