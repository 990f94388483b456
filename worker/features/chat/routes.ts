// /api/chat/:reportId (admins): the chat bootstrap with the system prompt, a (streamed) reply, and the public conversations.
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import { chatBodyLimit, chatBootstrap, loadSubject, loadSubjectWithAudit, readChatRequest } from "./load";
import { chatAuditBlock } from "./audit-block";
import { agencyPayer, type Payer } from "../../domain/metering";
import { chatProspect, fallbackFor, replyResponse, subjectQuestions } from "./reply";
import { userPayer } from "../../platform/metering/meter";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { listConversations, type ConversationCursor } from "./queries";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { validate } from "../../platform/validate";
import { ConversationsQuery, systemPromptFor } from "./rules/chat";
import { apiError, ErrorCode } from "../../platform/errors";

export type ConversationDto = {
  id: string;
  /** Left contact details: listed on top. */
  pinned: boolean;
  started_at: string;
  last_message_at: string;
  message_count: number;
  lead: { name: string | null; phone: string | null; email: string | null } | null;
  messages: { role: "user" | "assistant" | "system"; content: string; created_at: string }[];
};


export const chatRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/:reportId", async (c) => {
    const loaded = await loadSubject(c, "admin");
    if ("error" in loaded) return loaded.error;
    const { subject } = loaded;
    return c.json({
      ...chatBootstrap(c, subject),
      prospect: {
        name: subject.name,
        company_name: subject.companyName,
        keyword: subject.keyword,
        area: subject.area,
        tag: subject.tag,
      },
      system_prompt: systemPromptFor(chatProspect(subject), subjectQuestions(subject), "admin"),
    });
  })

  .post("/:reportId/messages", chatBodyLimit, async (c) => {
    const body = await readChatRequest(c);
    if ("error" in body) return body.error;
    const fallback = fallbackFor(c.env, body.data.fallback);
    const db = getDb(c.env);
    const adminId = c.get("caller").id;
    // Admin work on prospects is charged to the admin who asked: the allowance is read beside the subject, not after it.
    const payer: Promise<Payer> = fallback ? Promise.resolve(agencyPayer(adminId)) : userPayer(c.env, db, adminId);
    payer.catch(() => undefined);
    const loaded = await loadSubjectWithAudit(c);
    if ("error" in loaded) return loaded.error;
    return replyResponse(c, {
      db,
      subject: loaded.subject,
      turns: body.data.messages,
      audience: "admin",
      userId: adminId,
      fallback,
      session: null,
      payer: await payer,
      auditBlock: chatAuditBlock(loaded.audit, loaded.subject.reportId),
    });
  })

  .get("/:reportId/conversations", validate("query", ConversationsQuery), async (c) => {
    const loaded = await loadSubject(c, "admin");
    if ("error" in loaded) return loaded.error;
    const { cursor, limit } = c.req.valid("query");
    let after: ConversationCursor | null = null;
    if (cursor) {
      const decoded = decodeCursor(cursor);
      const match = decoded ? /^([01])\|(.+)$/.exec(decoded.createdAt) : null;
      if (!decoded || !match) return apiError(c, 400, ErrorCode.validation, "cursor: not a cursor of this list");
      after = { pinned: Number(match[1]), lastMessageAt: match[2]!, seq: decoded.seq };
    }
    const page = await listConversations(getDb(c.env), loaded.subject.reportId, limit, after);
    const conversations: ConversationDto[] = page.conversations.map(({ session: s, pinned, turns }) => ({
      id: s.id,
      pinned,
      started_at: s.startedAt,
      last_message_at: s.lastMessageAt,
      message_count: s.messageCount,
      lead: s.leadName || s.leadPhone || s.leadEmail ? { name: s.leadName, phone: s.leadPhone, email: s.leadEmail } : null,
      messages: turns.map((t) => ({ role: t.role, content: t.content, created_at: t.createdAt })),
    }));
    const nextCursor = page.next ? encodeCursor({ createdAt: `${page.next.pinned}|${page.next.lastMessageAt}`, seq: page.next.seq }) : null;
    return c.json({ conversations, nextCursor });
  });
