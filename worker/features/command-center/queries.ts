// The attention queue's named queries: items made once per (client, kind, subject), closed when their cause is gone,
// snoozed or marked done by an admin; the sweeps that find low reviews, lost connections and failed posts across every
// client in one statement each (indexed reads of the other capabilities' tables).
import { and, eq, inArray, like, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../platform/db/client";
import { profiles, users } from "../../platform/auth/tables";
import { reviews } from "../reviews/tables";
import { attentionItems } from "./tables";
import { ATTENTION_KINDS, LOW_REVIEW_MAX_STARS, type AttentionAction, type AttentionKind } from "./rules/attention";
import { ALLOWANCE_WARN_SHARE, SOLV_FALL_POINTS } from "./rules/health";

export type AttentionRow = typeof attentionItems.$inferSelect;
export type NewAttention = { userId: string; kind: AttentionKind; subject: string; data: Record<string, unknown>; happenedAt: string };

/** A version-4 UUID made by SQLite, for the rows an INSERT … SELECT makes (a fixed expression: nothing interpolated). */
const uuidSql = sql`lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`;

/** Items not made before (per client, kind and subject); answers the ones made now. */
export async function addItems(db: Db, items: NewAttention[]): Promise<AttentionRow[]> {
  if (items.length === 0) return [];
  const rows = items.map((i) => ({ id: crypto.randomUUID(), userId: i.userId, kind: i.kind, subject: i.subject, data: JSON.stringify(i.data), happenedAt: i.happenedAt }));
  const inserts = [];
  for (let i = 0; i < rows.length; i += 10) inserts.push(db.insert(attentionItems).values(rows.slice(i, i + 10)).onConflictDoNothing().returning());
  const [first, ...rest] = inserts;
  const results = await db.batch([first!, ...rest]);
  return results.flat();
}

const UNSETTLED = ["open", "snoozed"] as const;

/** Closes the unsettled items of `kind` whose subject is among `subjects` (their cause is gone). */
export async function closeItems(db: Db, kind: AttentionKind, subjects: string[], now: string): Promise<string[]> {
  if (subjects.length === 0) return [];
  const closed = await db
    .update(attentionItems)
    .set({ status: "closed", closedAt: now, updatedAt: now })
    .where(and(eq(attentionItems.kind, kind), inArray(attentionItems.subject, subjects), inArray(attentionItems.status, [...UNSETTLED])))
    .returning({ userId: attentionItems.userId });
  return closed.map((r) => r.userId);
}

/** Closes a client's unsettled items of `kind` whose subject starts with `prefix` (a location's verification items). */
export async function closeItemsLike(db: Db, userId: string, kind: AttentionKind, prefix: string, now: string) {
  return db
    .update(attentionItems)
    .set({ status: "closed", closedAt: now, updatedAt: now })
    .where(and(eq(attentionItems.userId, userId), eq(attentionItems.kind, kind), like(attentionItems.subject, `${prefix.replace(/[%_]/g, "")}%`), inArray(attentionItems.status, [...UNSETTLED])));
}

/**
 * The sweep's finds across every client, one statement each: 1–3 star reviews unanswered since before
 * `lowReviewCut`, connections that need reconnecting, posts that failed or were rejected since `postsSince`; and the
 * closing of those whose cause is gone (the review answered or removed, the connection back, the post rescheduled).
 * Answers the items made now.
 */
export async function sweepFinds(db: Db, p: { now: string; lowReviewCut: string; postsSince: string; reportCut: string }): Promise<{ made: AttentionRow[]; closedFor: string[] }> {
  const close = (kind: AttentionKind, gone: SQL) =>
    db.all<{ user_id: string }>(sql`update attention_items set status = 'closed', closed_at = ${p.now}, updated_at = ${p.now}
      where kind = ${kind} and status in ('open', 'snoozed') and ${gone} returning user_id`);
  // Nine statements a cron run, whatever the number of clients (D1's batch takes query builders, not raw SQL).
  const finds = [
    db.all<AttentionRow>(sql`insert into attention_items (id, user_id, kind, subject, data, happened_at)
      select ${uuidSql}, r.user_id, 'low_review', r.id,
        json_object('stars', r.stars, 'reviewer', r.reviewer_name, 'comment', substr(coalesce(r.comment, ''), 1, 400), 'reviewId', r.id), r.create_time
      from reviews r
      where r.stars <= ${LOW_REVIEW_MAX_STARS} and r.reply_comment is null and r.deleted_at is null and r.create_time < ${p.lowReviewCut}
        and r.reply_state not in ('queued', 'publishing')
      on conflict (user_id, kind, subject) do nothing
      returning *`),
    db.all<AttentionRow>(sql`insert into attention_items (id, user_id, kind, subject, data, happened_at)
      select ${uuidSql}, c.user_id, 'google_reconnect', c.id || ':' || c.updated_at,
        json_object('error', coalesce(c.last_error, '')), c.updated_at
      from gbp_connections c where c.status = 'needs_reconnect'
      on conflict (user_id, kind, subject) do nothing
      returning *`),
    // What the clients view's rows say (issue 41): each client's latest figures, as their capabilities last gave them.
    db.all<AttentionRow>(sql`insert into attention_items (id, user_id, kind, subject, data, happened_at)
      select ${uuidSql}, user_id, kind, subject, data, happened_at from (
        select c.user_id, 'rank_fell' as kind, 'grid@' || json_extract(c.rank, '$.scannedAt') as subject,
          json_object('solv', json_extract(c.rank, '$.solv'), 'solvChange', json_extract(c.rank, '$.solvChange')) as data, json_extract(c.rank, '$.scannedAt') as happened_at
        from client_summaries c where json_extract(c.rank, '$.solvChange') <= ${-SOLV_FALL_POINTS} and json_extract(c.rank, '$.scannedAt') is not null
        union all
        select c.user_id, 'listing_wrong', 'citations@' || json_extract(c.citations, '$.scannedAt'),
          json_object('wrong', json_extract(c.citations, '$.wrong'), 'sources', json_extract(c.citations, '$.wrongMajor')), json_extract(c.citations, '$.scannedAt')
        from client_summaries c where json_array_length(c.citations, '$.wrongMajor') > 0 and json_extract(c.citations, '$.scannedAt') is not null
        union all
        select c.user_id, 'ai_fell', 'ai@' || json_extract(c.ai, '$.scannedAt'),
          json_object('mentionRate', json_extract(c.ai, '$.mentionRate'), 'previousRate', json_extract(c.ai, '$.previousRate')), json_extract(c.ai, '$.scannedAt')
        from client_summaries c where json_extract(c.ai, '$.direction') = 'down' and json_extract(c.ai, '$.scannedAt') is not null
        union all
        select c.user_id, 'report_unopened', 'report@' || json_extract(c.report, '$.month'),
          json_object('month', json_extract(c.report, '$.month'), 'sentAt', json_extract(c.report, '$.sentAt')), json_extract(c.report, '$.sentAt')
        from client_summaries c where json_extract(c.report, '$.sentAt') < ${p.reportCut} and json_extract(c.report, '$.openedAt') is null
        union all
        select c.user_id, 'allowance_high', 'usage@' || ${p.now.slice(0, 7)},
          json_object('share', 1.0 * json_extract(c.usage, '$.spentCents') / json_extract(c.usage, '$.allowanceCents')), ${p.now}
        from client_summaries c where json_extract(c.usage, '$.allowanceCents') > 0
          and json_extract(c.usage, '$.spentCents') >= ${ALLOWANCE_WARN_SHARE} * json_extract(c.usage, '$.allowanceCents')
      ) where true
      on conflict (user_id, kind, subject) do nothing
      returning *`),
    // Each tracked keyword that left the map pack's top 3 at its latest check (D1 allows five terms a compound select).
    db.all<AttentionRow>(sql`insert into attention_items (id, user_id, kind, subject, data, happened_at)
      select ${uuidSql}, c.user_id, 'keyword_left_top3', 'keyword:' || json_extract(k.value, '$.keywordId') || '@' || json_extract(k.value, '$.checkedAt'),
        json_object('keyword', json_extract(k.value, '$.keyword'), 'from', json_extract(k.value, '$.from'), 'to', json_extract(k.value, '$.to')), json_extract(k.value, '$.checkedAt')
      from client_summaries c, json_each(c.rank, '$.leftTop3') k where c.rank is not null
      on conflict (user_id, kind, subject) do nothing
      returning *`),
    db.all<AttentionRow>(sql`insert into attention_items (id, user_id, kind, subject, data, happened_at)
      select ${uuidSql}, s.user_id, 'post_failed', s.id,
        json_object('state', s.state, 'reason', coalesce(s.reason, ''), 'summary', substr(coalesce(json_extract(s.body, '$.summary'), ''), 1, 200), 'location', coalesce(s.location_title, ''), 'scheduledAt', s.scheduled_at), s.updated_at
      from scheduled_posts s where s.state in ('failed', 'rejected') and s.updated_at >= ${p.postsSince}
      on conflict (user_id, kind, subject) do nothing
      returning *`),
  ];
  const made = (await Promise.all(finds)).flat();
  const closed = await Promise.all([
    close("low_review", sql`not exists (select 1 from reviews r where r.id = attention_items.subject and r.reply_comment is null and r.deleted_at is null)`),
    close("google_reconnect", sql`not exists (select 1 from gbp_connections c where c.user_id = attention_items.user_id and c.status = 'needs_reconnect')`),
    close("post_failed", sql`not exists (select 1 from scheduled_posts s where s.id = attention_items.subject and s.state in ('failed', 'rejected'))`),
    // The clients view's kinds close when the client's latest figures no longer say so (a new scan, the report opened, a new month).
    db.all<{ user_id: string }>(sql`update attention_items set status = 'closed', closed_at = ${p.now}, updated_at = ${p.now}
      where kind in ('rank_fell', 'keyword_left_top3', 'listing_wrong', 'ai_fell', 'report_unopened', 'allowance_high') and status in ('open', 'snoozed')
        and not exists (select 1 from client_summaries c where c.user_id = attention_items.user_id and (
          (attention_items.kind = 'rank_fell' and attention_items.subject = 'grid@' || json_extract(c.rank, '$.scannedAt') and json_extract(c.rank, '$.solvChange') <= ${-SOLV_FALL_POINTS})
          or (attention_items.kind = 'keyword_left_top3' and exists (select 1 from json_each(c.rank, '$.leftTop3') k
            where attention_items.subject = 'keyword:' || json_extract(k.value, '$.keywordId') || '@' || json_extract(k.value, '$.checkedAt')))
          or (attention_items.kind = 'listing_wrong' and attention_items.subject = 'citations@' || json_extract(c.citations, '$.scannedAt') and json_array_length(c.citations, '$.wrongMajor') > 0)
          or (attention_items.kind = 'ai_fell' and attention_items.subject = 'ai@' || json_extract(c.ai, '$.scannedAt') and json_extract(c.ai, '$.direction') = 'down')
          or (attention_items.kind = 'report_unopened' and attention_items.subject = 'report@' || json_extract(c.report, '$.month') and json_extract(c.report, '$.openedAt') is null)
          or (attention_items.kind = 'allowance_high' and attention_items.subject = 'usage@' || ${p.now.slice(0, 7)}
            and json_extract(c.usage, '$.spentCents') >= ${ALLOWANCE_WARN_SHARE} * json_extract(c.usage, '$.allowanceCents'))))
      returning user_id`),
  ]);
  return { made: made.map(fromRaw), closedFor: closed.flat().map((r) => r.user_id) };
}

/** A row as SQLite answers a raw RETURNING * (snake_case) in the drizzle shape. */
function fromRaw(r: AttentionRow | Record<string, unknown>): AttentionRow {
  const x = r as Record<string, unknown>;
  if ("userId" in x) return r as AttentionRow;
  return {
    id: x.id as string,
    userId: x.user_id as string,
    kind: x.kind as AttentionKind,
    subject: x.subject as string,
    data: x.data as string,
    happenedAt: x.happened_at as string,
    status: x.status as AttentionRow["status"],
    snoozedUntil: (x.snoozed_until as string | null) ?? null,
    doneBy: (x.done_by as string | null) ?? null,
    doneAt: (x.done_at as string | null) ?? null,
    closedAt: (x.closed_at as string | null) ?? null,
    createdAt: x.created_at as string,
    updatedAt: x.updated_at as string,
  };
}

/** What a status filter shows: open includes snoozed items whose date has come. */
function statusWhere(status: "open" | "snoozed" | "done", today: string): SQL | undefined {
  if (status === "open") return or(eq(attentionItems.status, "open"), and(eq(attentionItems.status, "snoozed"), sql`${attentionItems.snoozedUntil} <= ${today}`));
  if (status === "snoozed") return and(eq(attentionItems.status, "snoozed"), sql`${attentionItems.snoozedUntil} > ${today}`);
  return inArray(attentionItems.status, ["done", "closed"]);
}

export type ListedItem = AttentionRow & { clientName: string | null; clientEmail: string; doneByEmail: string | null; draft: string | null; replyState: string | null };

const doneUsers = alias(users, "done_users");

/** The queue's rank of a kind (ATTENTION_KINDS' order) in SQL. */
const kindRank = sql`case ${attentionItems.kind} ${sql.join(
  ATTENTION_KINDS.map((k, i) => sql`when ${k} then ${i}`),
  sql` `,
)} else ${ATTENTION_KINDS.length} end`;

export async function listItems(db: Db, p: { status: "open" | "snoozed" | "done"; userId?: string; today: string; limit: number }): Promise<ListedItem[]> {
  const rows = await db
    .select({ item: attentionItems, clientName: profiles.companyName, clientEmail: users.email, doneByEmail: doneUsers.email, draft: reviews.draft, replyState: reviews.replyState })
    .from(attentionItems)
    .innerJoin(users, eq(users.id, attentionItems.userId))
    .leftJoin(doneUsers, eq(doneUsers.id, attentionItems.doneBy))
    .leftJoin(profiles, eq(profiles.id, attentionItems.userId))
    .leftJoin(reviews, and(eq(attentionItems.kind, "low_review"), eq(reviews.id, attentionItems.subject)))
    .where(and(statusWhere(p.status, p.today), p.userId ? eq(attentionItems.userId, p.userId) : undefined))
    // The most urgent kind first, the longest waiting first within it; the limit cuts the least urgent, never tonight's
    // lost verification. Done: the most recently done first.
    .orderBy(...(p.status === "done" ? [sql`coalesce(${attentionItems.doneAt}, ${attentionItems.closedAt}) desc`] : [kindRank, attentionItems.happenedAt]))
    .limit(p.limit);
  return rows.map((r) => ({ ...r.item, clientName: r.clientName, clientEmail: r.clientEmail, doneByEmail: r.doneByEmail, draft: r.draft, replyState: r.replyState }));
}

/** The tabs' counts: each an indexed count by status (never a scan of every item ever made). */
export async function countItems(db: Db, p: { userId?: string; today: string }): Promise<{ open: number; snoozed: number; done: number }> {
  const mine = p.userId ? sql` and user_id = ${p.userId}` : sql``;
  const count = (where: SQL) => sql`(select count(*) from attention_items where ${where}${mine})`;
  const [row] = await db.all<{ open: number; due: number; snoozed: number; done: number }>(
    sql`select ${count(sql`status = 'open'`)} as open, ${count(sql`status = 'snoozed' and snoozed_until <= ${p.today}`)} as due,
      ${count(sql`status = 'snoozed'`)} as snoozed, ${count(sql`status in ('done', 'closed')`)} as done`,
  );
  const due = Number(row?.due ?? 0);
  return { open: Number(row?.open ?? 0) + due, snoozed: Number(row?.snoozed ?? 0) - due, done: Number(row?.done ?? 0) };
}

export async function findItem(db: Db, id: string): Promise<AttentionRow | null> {
  return (await db.select().from(attentionItems).where(eq(attentionItems.id, id)).get()) ?? null;
}

/** An admin's act on an item: done (who and when kept), snoozed until a date, or reopened. A closed item stays closed. */
export async function actOnItem(db: Db, id: string, action: AttentionAction, by: string, now: string): Promise<AttentionRow | null> {
  const set =
    action.action === "done"
      ? { status: "done" as const, doneBy: by, doneAt: now, snoozedUntil: null }
      : action.action === "snooze"
        ? { status: "snoozed" as const, snoozedUntil: action.until, doneBy: by, doneAt: null }
        : { status: "open" as const, snoozedUntil: null, doneBy: null, doneAt: null };
  const [row] = await db
    .update(attentionItems)
    .set({ ...set, updatedAt: now })
    .where(and(eq(attentionItems.id, id), inArray(attentionItems.status, ["open", "snoozed", "done"])))
    .returning();
  return row ?? null;
}
