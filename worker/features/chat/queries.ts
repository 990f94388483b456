// Queries for the prospect chat: the report + prospect it talks about, visitor conversations and their turns, leads.
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { latestAuditQuery, latestAuditStepsQuery, prospectOfReport, type AuditRow, type AuditStepRow } from "../audits";
import { countEventQuery, type Limit } from "../../platform/db/rate-limits";
import { latestProspectChecksQuery, type CitationCheckRow } from "../citations";
import { latestProspectAiScanQuery, type AiScanRow } from "../ai-visibility";
import { rateLimits } from "../../platform/db/tables";
import { chatMessages, chatSessions } from "./tables";
import { prospects } from "../prospects/tables";
import { seoReports } from "../reports/tables";


function subjectQuery(db: Db, reportId: string) {
  return db
    .select({
      reportId: seoReports.id,
      questions: seoReports.questions,
      // Aliased: D1 hands batched rows back by column name, and seo_reports.id / prospects.id would collide.
      prospectId: sql<string | null>`${prospects.id}`.as("chat_prospect_id"),
      name: sql<string>`${prospects.name}`.as("chat_name"),
      companyName: sql<string>`${prospects.companyName}`.as("chat_company_name"),
      keyword: sql<string>`${prospects.keyword}`.as("chat_keyword"),
      area: sql<string>`${prospects.area}`.as("chat_area"),
      tag: sql<string | null>`${prospects.tag}`.as("chat_tag"),
      description: sql<string>`${prospects.description}`.as("chat_description"),
    })
    .from(seoReports)
    .leftJoin(prospects, eq(prospects.id, seoReports.prospectId))
    .where(eq(seoReports.id, reportId))
    .limit(1);
}

/** The report's questions and its prospect's fields the chat needs, in one read (prospectId null: prospect gone). */
export async function getChatSubject(db: Db, reportId: string) {
  const rows = await subjectQuery(db, reportId);
  return rows[0] ?? null;
}
export type ChatSubject = NonNullable<Awaited<ReturnType<typeof getChatSubject>>>;

/** A visitor's conversation as a reply needs it: who, and where the lead question stands. */
export type VisitorSession = { reportId: string; visitorId: string; answerCount: number; leadAskedAt: string | null };

/** The prospect's newest audit as a chat reads it: the stored chat block, or the steps to write it from. */
export type ChatAuditRead = { audit: AuditRow | null; chatBlock: string | null; steps: AuditStepRow[]; listingChecks: CitationCheckRow[]; aiScan: AiScanRow | null };

function chatAuditQueries(db: Db, reportId: string) {
  const prospectId = prospectOfReport(reportId);
  // The citation scan's checks (issue 27's "Listings") ride in the same batch: no round trip of their own.
  // So does the newest AI Visibility scan (issue 29).
  return [latestAuditQuery(db, prospectId), latestAuditStepsQuery(db, prospectId, { unlessChatBlock: true }), latestProspectChecksQuery(db, prospectId), latestProspectAiScanQuery(db, prospectId)] as const;
}

function chatAuditRead(latest: { audit: AuditRow; chatBlock: string | null }[], steps: AuditStepRow[], listingChecks: CitationCheckRow[], aiScan: AiScanRow[]): ChatAuditRead {
  return { audit: latest[0]?.audit ?? null, chatBlock: latest[0]?.chatBlock ?? null, steps, listingChecks, aiScan: aiScan[0] ?? null };
}

/** The subject and its prospect's newest audit (the chat block, or the steps when none is stored): one round trip. */
export async function getChatSubjectWithAudit(db: Db, reportId: string) {
  const [subject, latest, steps, listingChecks, aiScan] = await db.batch([subjectQuery(db, reportId), ...chatAuditQueries(db, reportId)]);
  return { subject: subject[0] ?? null, audit: chatAuditRead(latest, steps, listingChecks, aiScan) };
}

/** True when the report exists and its prospect too: a message to anything else counts nothing. */
function reportHasProspect(reportId: string) {
  return sql`exists (select 1 from ${seoReports} join ${prospects} on ${prospects.id} = ${seoReports.prospectId} where ${seoReports.id} = ${reportId})`;
}

/** The statements of a reservation taken at the end of a batch, and how to read their results (worker/platform/metering). */
export type BatchedReservation<T> = {
  statements: readonly unknown[];
  /** Reads its own statements' results (the batch's last ones). */
  result: (results: readonly unknown[]) => T;
};

/** True when the counter of `limit` (counted earlier in the same batch) is within its limit. */
function withinLimit(limit: Limit) {
  return sql`coalesce((select ${rateLimits.count} from ${rateLimits} where ${rateLimits.key} = ${limit.key}), ${limit.max + 1}) <= ${limit.max}`;
}

/**
 * Everything a public message needs before the AI call, in one round trip (one transaction): the report and prospect
 * it talks about, the visitor's conversation so far, the message counted against the address limit and, for a turn
 * the AI will answer, the report's (only when the report and its prospect exist), the prospect's newest audit, and
 * (`reserve`) the AI call's reservation, taken only when the report and prospect exist and both counts are within
 * their limits: a message that is refused reserves nothing.
 */
export async function readPublicChatTurn<T = never>(
  db: Db,
  input: { reportId: string; visitorId: string; ipLimit: Limit; reportLimit: Limit | null; reserve?: (onlyIf: SQL) => BatchedReservation<T> },
) {
  const onlyIf = reportHasProspect(input.reportId);
  const now = Date.now();
  const counts = [countEventQuery(db, input.ipLimit, now, onlyIf), ...(input.reportLimit ? [countEventQuery(db, input.reportLimit, now, onlyIf)] : [])] as const;
  const reservation = input.reserve?.(and(onlyIf, withinLimit(input.ipLimit), ...(input.reportLimit ? [withinLimit(input.reportLimit)] : []))!);
  const reads = [
    subjectQuery(db, input.reportId),
    db
      .select({ answerCount: chatSessions.answerCount, leadAskedAt: chatSessions.leadAskedAt })
      .from(chatSessions)
      .where(and(eq(chatSessions.reportId, input.reportId), eq(chatSessions.visitorId, input.visitorId)))
      .limit(1),
    ...chatAuditQueries(db, input.reportId),
  ] as const;
  const results = (await db.batch([...reads, ...counts, ...((reservation?.statements ?? []) as [])] as unknown as Parameters<Db["batch"]>[0])) as unknown as unknown[];
  const [subject, session, latest, steps, listingChecks, aiScan] = results as [
    Awaited<(typeof reads)[0]>,
    Awaited<(typeof reads)[1]>,
    Awaited<(typeof reads)[2]>,
    Awaited<(typeof reads)[3]>,
    Awaited<(typeof reads)[4]>,
    Awaited<(typeof reads)[5]>,
  ];
  const ip = results[reads.length] as { count: number }[];
  const report = input.reportLimit ? (results[reads.length + 1] as { count: number }[]) : null;
  const end = reads.length + counts.length;
  return {
    subject: subject[0] ?? null,
    session: {
      reportId: input.reportId,
      visitorId: input.visitorId,
      answerCount: session[0]?.answerCount ?? 0,
      leadAskedAt: session[0]?.leadAskedAt ?? null,
    } satisfies VisitorSession,
    ipCount: ip[0]?.count ?? 0,
    reportCount: report?.[0]?.count ?? 0,
    audit: chatAuditRead(latest, steps, listingChecks, aiScan),
    /** The reservation's outcome; meaningful only for a message that was not refused (subject found, within limits). */
    reserved: reservation ? reservation.result(results.slice(end)) : null,
  };
}

export type SavedTurn = {
  session: VisitorSession;
  question: string;
  answer: string;
  askedAt: string;
  answeredAt: string;
  leadAsked: boolean;
  lead: { name: string | null; phone: string | null; email: string | null } | null;
};

/** The conversation (made on its first message), the visitor's question and the reply, counters and lead details: one batch. */
export async function saveChatTurn(db: Db, t: SavedTurn) {
  const { session, lead } = t;
  const sameSession = and(eq(chatSessions.reportId, session.reportId), eq(chatSessions.visitorId, session.visitorId));
  const sessionId = sql<string>`(select ${chatSessions.id} from ${chatSessions} where ${sameSession})`;
  await db.batch([
    db
      .insert(chatSessions)
      .values({ id: crypto.randomUUID(), reportId: session.reportId, visitorId: session.visitorId, startedAt: t.askedAt, lastMessageAt: t.askedAt })
      .onConflictDoNothing(),
    db.insert(chatMessages).values([
      { id: crypto.randomUUID(), reportId: session.reportId, sessionId, role: "user" as const, content: t.question, createdAt: t.askedAt },
      { id: crypto.randomUUID(), reportId: session.reportId, sessionId, role: "assistant" as const, content: t.answer, createdAt: t.answeredAt },
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
      .where(sameSession),
  ]);
}

/** 1 for a conversation that left contact details (pinned on top of the list), else 0. */
const hasLead = sql<number>`(case when ${chatSessions.leadName} is not null or ${chatSessions.leadPhone} is not null or ${chatSessions.leadEmail} is not null then 1 else 0 end)`;

/** Where a page of conversations ends: (pinned, last message, rowid) of its last row. */
export type ConversationCursor = { pinned: number; lastMessageAt: string; seq: number };

/**
 * One page of the report's public conversations: those that left contact details first, then newest first, each
 * with every turn (two reads). `next` is where the following page starts, null on the last one.
 */
export async function listConversations(db: Db, reportId: string, limit: number, after: ConversationCursor | null = null) {
  const rows = await db
    .select({ session: chatSessions, pinned: hasLead, seq: sql<number>`${chatSessions}.rowid` })
    .from(chatSessions)
    .where(
      and(
        eq(chatSessions.reportId, reportId),
        sql`${chatSessions.messageCount} > 0`,
        after ? sql`(${hasLead}, ${chatSessions.lastMessageAt}, ${chatSessions}.rowid) < (${after.pinned}, ${after.lastMessageAt}, ${after.seq})` : undefined,
      ),
    )
    .orderBy(desc(hasLead), desc(chatSessions.lastMessageAt), sql`${chatSessions}.rowid desc`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? { pinned: last.pinned, lastMessageAt: last.session.lastMessageAt, seq: last.seq } : null;
  if (page.length === 0) return { conversations: [], next };
  const turns = await db
    .select({ sessionId: chatMessages.sessionId, role: chatMessages.role, content: chatMessages.content, createdAt: chatMessages.createdAt })
    .from(chatMessages)
    .where(inArray(chatMessages.sessionId, page.map((r) => r.session.id)))
    // Within one millisecond (workerd's clock stands still between I/O), insertion order decides.
    .orderBy(chatMessages.createdAt, sql`${chatMessages}.rowid`);
  return {
    conversations: page.map(({ session: s, pinned }) => ({ session: s, pinned: pinned === 1, turns: turns.filter((t) => t.sessionId === s.id) })),
    next,
  };
}
