// Chat: the report chat's messages and the public chat link's conversations.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, createdAt, belongsTo } from "../../platform/db/columns";
import { seoReports } from "../reports/tables";

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: id(),
    reportId: belongsTo("report_id", () => seoReports.id),
    userId: text("user_id"),
    role: text("role", { enum: ["system", "user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
    /** The public conversation (chat_sessions.id) this turn belongs to. */
    sessionId: text("session_id"),
  },
  (t) => [
    index("chat_messages_report_idx").on(t.reportId, t.createdAt),
    index("chat_messages_session_idx").on(t.sessionId, t.createdAt),
  ],
);

/** One visitor's conversation on a shared chat link: the transcript's head and the lead it yields. */
export const chatSessions = sqliteTable(
  "chat_sessions",
  {
    id: id(),
    reportId: belongsTo("report_id", () => seoReports.id),
    /** The id the visitor's page made for this conversation. */
    visitorId: text("visitor_id").notNull(),
    startedAt: createdAt(),
    lastMessageAt: text("last_message_at").notNull(),
    messageCount: integer("message_count").notNull().default(0),
    /** Answers the assistant has given; the lead question comes after LEAD_ASK_AFTER_ANSWERS. */
    answerCount: integer("answer_count").notNull().default(0),
    leadAskedAt: text("lead_asked_at"),
    leadName: text("lead_name"),
    leadPhone: text("lead_phone"),
    leadEmail: text("lead_email"),
  },
  (t) => [
    uniqueIndex("chat_sessions_report_visitor_unique").on(t.reportId, t.visitorId),
    index("chat_sessions_report_last_idx").on(t.reportId, t.lastMessageAt),
  ],
);
