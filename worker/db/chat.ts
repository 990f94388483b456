// Queries for the prospect chat: the report + prospect it talks about, visitor conversations and their turns, leads.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./client";
import { chatMessages, chatSessions, prospects, seoReports } from "./schema";

export type ChatSessionRow = typeof chatSessions.$inferSelect;

/** The report's questions and its prospect's fields the chat needs, in one read (prospectId null: prospect gone). */
export async function getChatSubject(db: Db, reportId: string) {
  const rows = await db
    .select({
      reportId: seoReports.id,
      questions: seoReports.questions,
      prospectId: prospects.id,
      name: sql<string>`${prospects.name}`,
      companyName: sql<string>`${prospects.companyName}`,
      keyword: sql<string>`${prospects.keyword}`,
      area: sql<string>`${prospects.area}`,
      tag: prospects.tag,
      description: sql<string>`${prospects.description}`,
    })
    .from(seoReports)
    .leftJoin(prospects, eq(prospects.id, seoReports.prospectId))
    .where(eq(seoReports.id, reportId))
    .limit(1);
  return rows[0] ?? null;
}
export type ChatSubject = NonNullable<Awaited<ReturnType<typeof getChatSubject>>>;

/** The visitor's conversation on this report, made on its first message. */
export async function openChatSession(db: Db, reportId: string, visitorId: string, now: string): Promise<ChatSessionRow> {
  const rows = await db
    .insert(chatSessions)
    .values({ id: crypto.randomUUID(), reportId, visitorId, startedAt: now, lastMessageAt: now })
    .onConflictDoUpdate({
      target: [chatSessions.reportId, chatSessions.visitorId],
      set: { lastMessageAt: now },
    })
    .returning();
  return rows[0]!;
}

export type SavedTurn = {
  session: ChatSessionRow;
  question: string;
  answer: string;
  askedAt: string;
  answeredAt: string;
  leadAsked: boolean;
  lead: { name: string | null; phone: string | null; email: string | null } | null;
};

/** The visitor's question and the reply, plus the conversation's counters and any lead details, in one batch. */
export async function saveChatTurn(db: Db, t: SavedTurn) {
  const { session } = t;
  const lead = t.lead;
  await db.batch([
    db.insert(chatMessages).values([
      { id: crypto.randomUUID(), reportId: session.reportId, sessionId: session.id, role: "user" as const, content: t.question, createdAt: t.askedAt },
      { id: crypto.randomUUID(), reportId: session.reportId, sessionId: session.id, role: "assistant" as const, content: t.answer, createdAt: t.answeredAt },
    ]),
    db
      .update(chatSessions)
      .set({
        lastMessageAt: t.answeredAt,
        messageCount: sql`${chatSessions.messageCount} + 2`,
        answerCount: sql`${chatSessions.answerCount} + 1`,
        ...(t.leadAsked ? { leadAskedAt: t.answeredAt } : {}),
        // A detail the visitor gave replaces nothing they gave before.
        ...(lead?.name ? { leadName: sql`coalesce(${chatSessions.leadName}, ${lead.name})` } : {}),
        ...(lead?.phone ? { leadPhone: sql`coalesce(${chatSessions.leadPhone}, ${lead.phone})` } : {}),
        ...(lead?.email ? { leadEmail: sql`coalesce(${chatSessions.leadEmail}, ${lead.email})` } : {}),
      })
      .where(eq(chatSessions.id, session.id)),
  ]);
}

/** The report's public conversations, newest first, each with every turn (one batch of two reads). */
export async function listConversations(db: Db, reportId: string, limit: number) {
  const sessions = await db
    .select()
    .from(chatSessions)
    .where(and(eq(chatSessions.reportId, reportId), sql`${chatSessions.messageCount} > 0`))
    .orderBy(desc(chatSessions.lastMessageAt), sql`${chatSessions}.rowid desc`)
    .limit(limit);
  if (sessions.length === 0) return [];
  const turns = await db
    .select({ sessionId: chatMessages.sessionId, role: chatMessages.role, content: chatMessages.content, createdAt: chatMessages.createdAt })
    .from(chatMessages)
    .where(inArray(chatMessages.sessionId, sessions.map((s) => s.id)))
    // Within one millisecond (workerd's clock stands still between I/O), insertion order decides.
    .orderBy(chatMessages.createdAt, sql`${chatMessages}.rowid`);
  return sessions.map((s) => ({ session: s, turns: turns.filter((t) => t.sessionId === s.id) }));
}

/** When a prospect last chatted on the shared link: a correlated read of chat_sessions_report_last_idx. */
export const lastChatAt = sql<string | null>`(select max(${chatSessions.lastMessageAt}) from ${chatSessions} where ${chatSessions.reportId} = ${seoReports.id})`;
