// Queries for the review inbox (issue 28): reviews kept once by Google's id (edits in place, history kept), reply
// claims by compare-and-set, the per-user settings and the cron's due syncs, and the competitors' counts from audits.
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { DEFAULT_REVIEW_SETTINGS, type ReviewFilter, type ReviewSettingsInput } from "./rules/reviews";
import { reviewClientFiguresOf, type ReviewClientFigures } from "./rules/client-figures";
import { rowsPerInsert, type Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { profiles } from "../../platform/auth/tables";
import { auditSteps, audits } from "../audits/tables";
import { gbpConnections } from "../integrations/tables";
import { gridPoints, gridScans } from "../rank/tables";
import { reviewHistory, reviews, reviewSettings } from "./tables";

export type ReviewRow = typeof reviews.$inferSelect;
export type NewReviewRow = typeof reviews.$inferInsert;
export type ReviewSettingsRow = typeof reviewSettings.$inferSelect;

const nowIso = () => new Date().toISOString();

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---- settings and sync state ----

export async function findReviewSettings(db: Db, userId: string): Promise<ReviewSettingsRow | null> {
  return (await db.select().from(reviewSettings).where(eq(reviewSettings.userId, userId)).get()) ?? null;
}

export function settingsOfRow(row: ReviewSettingsRow | null): ReviewSettingsInput {
  if (!row) return DEFAULT_REVIEW_SETTINGS;
  return { tone: row.tone, signature: row.signature, autoPublish: row.autoPublish, autoPublishDelayHours: row.autoPublishDelayHours };
}

export async function saveReviewSettings(db: Db, userId: string, input: ReviewSettingsInput): Promise<void> {
  const values = { ...input, updatedAt: nowIso() };
  await db.insert(reviewSettings).values({ userId, ...values }).onConflictDoUpdate({ target: reviewSettings.userId, set: values });
}

export async function recordSync(db: Db, userId: string, fields: { lastSyncAt?: string; lastSyncError: string | null; googleAverage?: number | null; googleTotal?: number | null }): Promise<void> {
  const set = { ...fields, updatedAt: nowIso() };
  await db.insert(reviewSettings).values({ userId, ...set }).onConflictDoUpdate({ target: reviewSettings.userId, set });
}

/**
 * Claims a Check now for the business (compare-and-set in one statement): refused while another is on its way (claimed
 * after `staleBefore`) or when the last one was accepted after `intervalBefore`. Null when claimed, else the row that
 * refused it (when it may run again is read from it).
 */
export async function claimManualSync(db: Db, userId: string, now: string, intervalBefore: string, staleBefore: string): Promise<{ syncClaimedAt: string | null; syncRequestedAt: string | null } | null> {
  const set = { syncClaimedAt: now, syncRequestedAt: now, updatedAt: now };
  const claimed = await db
    .insert(reviewSettings)
    .values({ userId, ...set })
    .onConflictDoUpdate({
      target: reviewSettings.userId,
      set,
      setWhere: and(
        or(isNull(reviewSettings.syncClaimedAt), lte(reviewSettings.syncClaimedAt, staleBefore)),
        or(isNull(reviewSettings.syncRequestedAt), lte(reviewSettings.syncRequestedAt, intervalBefore)),
      ),
    })
    .returning({ userId: reviewSettings.userId });
  if (claimed.length > 0) return null;
  const row = await db.select({ syncClaimedAt: reviewSettings.syncClaimedAt, syncRequestedAt: reviewSettings.syncRequestedAt }).from(reviewSettings).where(eq(reviewSettings.userId, userId)).get();
  return row ?? { syncClaimedAt: null, syncRequestedAt: null };
}

/** Ends a business's sync claim (the sync finished, failed for good, or was never queued). */
export async function releaseSyncClaim(db: Db, userId: string): Promise<void> {
  await db.update(reviewSettings).set({ syncClaimedAt: null }).where(eq(reviewSettings.userId, userId));
}

/**
 * The cron's due syncs: connected users whose next sync time has come (or who never synced). Each is claimed by moving
 * `next_sync_at` forward with a compare-and-set, so two sweeps never enqueue one user twice in a period.
 */
export async function claimDueSyncs(db: Db, now: Date, nextAt: string, limit = 50): Promise<string[]> {
  const at = now.toISOString();
  const due = await db
    .select({ userId: gbpConnections.userId, nextSyncAt: reviewSettings.nextSyncAt })
    .from(gbpConnections)
    .leftJoin(reviewSettings, eq(reviewSettings.userId, gbpConnections.userId))
    .where(and(eq(gbpConnections.status, "connected"), or(isNull(reviewSettings.nextSyncAt), lte(reviewSettings.nextSyncAt, at))))
    .orderBy(asc(reviewSettings.nextSyncAt))
    .limit(limit);
  const claimed: string[] = [];
  for (const d of due) {
    const rows = d.nextSyncAt
      ? await db
          .update(reviewSettings)
          .set({ nextSyncAt: nextAt })
          .where(and(eq(reviewSettings.userId, d.userId), eq(reviewSettings.nextSyncAt, d.nextSyncAt)))
          .returning({ userId: reviewSettings.userId })
      : await db
          .insert(reviewSettings)
          .values({ userId: d.userId, nextSyncAt: nextAt })
          .onConflictDoUpdate({ target: reviewSettings.userId, set: { nextSyncAt: nextAt }, setWhere: isNull(reviewSettings.nextSyncAt) })
          .returning({ userId: reviewSettings.userId });
    if (rows.length > 0) claimed.push(d.userId);
  }
  return claimed;
}

// ---- reviews ----

/** What sync compares against: every stored review of the user (one query), by Google's id. */
export async function storedReviewIndex(db: Db, userId: string) {
  const rows = await db
    .select({
      id: reviews.id,
      googleReviewId: reviews.googleReviewId,
      locationName: reviews.locationName,
      updateTime: reviews.updateTime,
      stars: reviews.stars,
      comment: reviews.comment,
      replyComment: reviews.replyComment,
      replyUpdateTime: reviews.replyUpdateTime,
      replyState: reviews.replyState,
      deletedAt: reviews.deletedAt,
    })
    .from(reviews)
    .where(eq(reviews.userId, userId));
  return new Map(rows.map((r) => [r.googleReviewId, r]));
}
export type StoredReview = NonNullable<ReturnType<Awaited<ReturnType<typeof storedReviewIndex>>["get"]>>;

export type ReviewChange =
  | { kind: "insert"; row: NewReviewRow }
  | {
      kind: "update";
      id: string;
      /** The version being replaced, kept in review_history when the review itself changed. */
      previous: { stars: number; comment: string | null; updateTime: string } | null;
      set: Partial<NewReviewRow>;
    }
  | { kind: "deleted"; id: string };

/** Writes one page of changes in one D1 batch (multi-row inserts within 100 bound parameters). Returns the statements run. */
export async function applyReviewChanges(db: Db, changes: ReviewChange[]): Promise<number> {
  const inserts = changes.filter((c): c is Extract<ReviewChange, { kind: "insert" }> => c.kind === "insert").map((c) => c.row);
  const statements = [];
  const perInsert = rowsPerInsert(Object.keys(inserts[0] ?? {}).length || 1);
  for (const part of chunks(inserts, perInsert)) statements.push(db.insert(reviews).values(part).onConflictDoNothing());
  const at = nowIso();
  for (const c of changes) {
    if (c.kind === "update") {
      if (c.previous) statements.push(db.insert(reviewHistory).values({ id: crypto.randomUUID(), reviewId: c.id, ...c.previous }).onConflictDoNothing());
      statements.push(db.update(reviews).set({ ...c.set, updatedAt: at }).where(eq(reviews.id, c.id)));
    } else if (c.kind === "deleted") {
      statements.push(db.update(reviews).set({ deletedAt: at, updatedAt: at }).where(and(eq(reviews.id, c.id), isNull(reviews.deletedAt))));
    }
  }
  for (const part of chunks(statements, 50)) {
    if (part.length > 0) await db.batch(part as [ (typeof part)[number], ...(typeof part)[number][] ]);
  }
  return statements.length;
}

function filterSql(filter: ReviewFilter): SQL | undefined {
  switch (filter) {
    case "all":
      return undefined;
    case "needs_reply":
      return isNull(reviews.replyComment);
    case "low":
      return and(sql`${reviews.stars} between 1 and 3`);
    case "with_text":
      return sql`trim(coalesce(${reviews.comment}, '')) <> ''`;
    case "replied":
      return isNotNull(reviews.replyComment);
  }
}

/** A page of the user's reviews (Google's still-listed ones), newest first, with the count per filter in the same batch. */
export async function listReviews(db: Db, userId: string, filter: ReviewFilter, limit = 100) {
  const mine = and(eq(reviews.userId, userId), isNull(reviews.deletedAt));
  const [rows, counts] = await db.batch([
    db
      .select()
      .from(reviews)
      .where(and(mine, filterSql(filter)))
      .orderBy(desc(reviews.createTime))
      .limit(limit),
    db
      .select({
        all: sql<number>`count(*)`,
        needsReply: sql<number>`coalesce(sum(case when ${reviews.replyComment} is null then 1 else 0 end), 0)`,
        low: sql<number>`coalesce(sum(case when ${reviews.stars} between 1 and 3 then 1 else 0 end), 0)`,
        withText: sql<number>`coalesce(sum(case when trim(coalesce(${reviews.comment}, '')) <> '' then 1 else 0 end), 0)`,
        replied: sql<number>`coalesce(sum(case when ${reviews.replyComment} is not null then 1 else 0 end), 0)`,
      })
      .from(reviews)
      .where(mine),
  ]);
  const c = counts[0];
  return {
    rows,
    counts: { all: c?.all ?? 0, needs_reply: c?.needsReply ?? 0, low: c?.low ?? 0, with_text: c?.withText ?? 0, replied: c?.replied ?? 0 } satisfies Record<ReviewFilter, number>,
  };
}

/** What the figures need of every review (stars, when written, when answered). */
export async function reviewTimes(db: Db, userId: string) {
  return db
    .select({ stars: reviews.stars, createTime: reviews.createTime, replyTime: reviews.replyUpdateTime })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), isNull(reviews.deletedAt)));
}

/** Reviews written since `since` with their reviewer's name (matched against review requests as likely follow-ups). */
export async function reviewersSince(db: Db, userId: string, since: string, limit = 5000): Promise<{ id: string; reviewerName: string; createdAt: string }[]> {
  return db
    .select({ id: reviews.id, reviewerName: reviews.reviewerName, createdAt: reviews.createTime })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), isNull(reviews.deletedAt), gte(reviews.createTime, since)))
    .orderBy(asc(reviews.createTime))
    .limit(limit);
}

export async function historyOf(db: Db, reviewIds: string[]) {
  const out: (typeof reviewHistory.$inferSelect)[] = [];
  for (const part of chunks(reviewIds, 90)) {
    if (part.length) out.push(...(await db.select().from(reviewHistory).where(inArray(reviewHistory.reviewId, part)).orderBy(asc(reviewHistory.updateTime))));
  }
  return out;
}

export async function findReview(db: Db, id: string): Promise<ReviewRow | null> {
  return (await db.select().from(reviews).where(eq(reviews.id, id)).get()) ?? null;
}

export async function findReviews(db: Db, ids: string[]): Promise<ReviewRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(reviews).where(inArray(reviews.id, ids.slice(0, 90)));
}

export async function saveDraft(db: Db, id: string, draft: { comment: string; source: "ai" | "template" | "owner"; notice: string | null }): Promise<void> {
  await db.update(reviews).set({ draft: draft.comment, draftSource: draft.source, draftNotice: draft.notice, updatedAt: nowIso() }).where(eq(reviews.id, id));
}

/** Puts a reply on its way to Google (not while another publish or delete of it is under way). */
export async function queueReply(db: Db, id: string, comment: string): Promise<ReviewRow | null> {
  const rows = await db
    .update(reviews)
    .set({ replyState: "queued", pendingReply: comment, draft: comment, draftSource: "owner", draftNotice: null, replyError: null, publishAttempts: 0, autoPublishAt: null, updatedAt: nowIso() })
    .where(and(eq(reviews.id, id), inArray(reviews.replyState, ["none", "published", "failed"])))
    .returning();
  return rows[0] ?? null;
}

/** Puts a published reply's deletion on its way. */
export async function queueReplyDelete(db: Db, id: string): Promise<ReviewRow | null> {
  const rows = await db
    .update(reviews)
    .set({ replyState: "delete_queued", replyError: null, publishAttempts: 0, autoPublishAt: null, updatedAt: nowIso() })
    .where(and(eq(reviews.id, id), isNotNull(reviews.replyComment), inArray(reviews.replyState, ["none", "published", "failed"])))
    .returning();
  return rows[0] ?? null;
}

/** A queued publish or delete as a job: claimed for one delivery (queued → publishing, delete_queued → deleting), counting the attempt. */
export const replyJob = defineJob({
  table: reviews,
  rows: (id: string) => eq(reviews.id, id),
  status: { column: reviews.replyState, from: ["queued", "delete_queued"], to: sql`case ${reviews.replyState} when 'queued' then 'publishing' else 'deleting' end` },
  attempts: reviews.publishAttempts,
  set: (now) => ({ updatedAt: now }),
});

/** Ends a claimed publish or delete: `from` is the claimed state, so only the claimer settles it. */
export async function settleReply(db: Db, id: string, from: "publishing" | "deleting", set: Partial<NewReviewRow>): Promise<boolean> {
  const rows = await db
    .update(reviews)
    .set({ ...set, updatedAt: nowIso() })
    .where(and(eq(reviews.id, id), eq(reviews.replyState, from)))
    .returning({ id: reviews.id });
  return rows.length > 0;
}

/** Claims that stayed "publishing"/"deleting" past `before` (a worker died): back in the queue. */
export async function staleReplyClaims(db: Db, before: string, limit = 50): Promise<string[]> {
  const rows = await db
    .update(reviews)
    .set({ replyState: sql`case ${reviews.replyState} when 'publishing' then 'queued' else 'delete_queued' end`, updatedAt: nowIso() })
    .where(and(inArray(reviews.replyState, ["publishing", "deleting"]), lte(reviews.updatedAt, before)))
    .returning({ id: reviews.id });
  return rows.slice(0, limit).map((r) => r.id);
}

/** Auto-publish's conditions: time come, 4–5 stars (here too, so a 1–3 star review is never touched), unanswered, a draft. */
function dueAutoPublishSql(now: string) {
  return and(
    lte(reviews.autoPublishAt, now),
    sql`${reviews.stars} >= 4`,
    eq(reviews.replyState, "none"),
    isNull(reviews.replyComment),
    isNotNull(reviews.draft),
    isNull(reviews.deletedAt),
  );
}

/** Auto-publish candidates whose time has come, with the draft that would be published (checked before the claim). */
export async function dueAutoPublish(db: Db, now: string, limit = 50): Promise<{ id: string; userId: string; draft: string }[]> {
  const rows = await db.select({ id: reviews.id, userId: reviews.userId, draft: reviews.draft }).from(reviews).where(dueAutoPublishSql(now)).orderBy(asc(reviews.autoPublishAt)).limit(limit);
  return rows.map((r) => ({ id: r.id, userId: r.userId, draft: r.draft ?? "" }));
}

/** A due auto-publish as a job: claimed by queueing exactly the draft that was checked (an edited draft is not taken). */
export const autoPublishJob = defineJob({
  table: reviews,
  rows: (id: string, draft: string, now: string) => and(eq(reviews.id, id), eq(reviews.draft, draft), dueAutoPublishSql(now)),
  set: (now, _id, draft) => ({ replyState: "queued" as const, pendingReply: draft, autoPublishAt: null, publishAttempts: 0, updatedAt: now }),
});

/** Keeps a due auto-publish as a draft for a person (its time cleared), saying why on the card. */
export async function holdAutoPublish(db: Db, id: string, draft: string, notice: string, now: string): Promise<void> {
  await db
    .update(reviews)
    .set({ autoPublishAt: null, draftNotice: notice, updatedAt: now })
    .where(and(eq(reviews.id, id), eq(reviews.draft, draft), dueAutoPublishSql(now)));
}

/** Marks the items of a dead-lettered publish message failed with the reason (nothing stays claimed). */
export async function failReplies(db: Db, ids: string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(reviews)
    .set({ replyState: "failed", replyError: reason, updatedAt: nowIso() })
    .where(and(inArray(reviews.id, ids.slice(0, 90)), inArray(reviews.replyState, ["queued", "publishing", "delete_queued", "deleting"])));
}

// ---- competitors ----

/** The user's own audits' rank step results (competitors with their review counts), oldest first. */
export async function ownAuditCompetitors(db: Db, userId: string, limit = 24) {
  return db
    .select({ at: audits.createdAt, result: auditSteps.result })
    .from(audits)
    .innerJoin(auditSteps, and(eq(auditSteps.auditId, audits.id), eq(auditSteps.step, "rank")))
    .where(and(eq(audits.userId, userId), eq(audits.kind, "own"), eq(auditSteps.status, "done")))
    .orderBy(desc(audits.createdAt))
    .limit(limit);
}

/** The own business's latest finished grid scans with every point's top three (their review counts feed the reviews page). */
export async function ownGridTopListings(db: Db, userId: string, scansLimit = 6) {
  const scans = await db
    .select({ id: gridScans.id, at: gridScans.finishedAt, business: gridScans.business })
    .from(gridScans)
    .where(and(eq(gridScans.userId, userId), eq(gridScans.kind, "own"), eq(gridScans.status, "done"), isNotNull(gridScans.finishedAt)))
    .orderBy(desc(gridScans.finishedAt))
    .limit(scansLimit);
  if (scans.length === 0) return [];
  const points = await db
    .select({ scanId: gridPoints.scanId, top3: gridPoints.top3 })
    .from(gridPoints)
    .where(and(inArray(gridPoints.scanId, scans.map((s) => s.id)), eq(gridPoints.status, "done")));
  return scans.map((scan) => ({ at: scan.at!, business: scan.business, top3: points.filter((p) => p.scanId === scan.id).map((p) => p.top3) }));
}

/** The business a reply speaks for: the user's company profile (name, phone, category, description, time zone). */
export async function replyBusinessOf(db: Db, userId: string) {
  const row = await db
    .select({
      name: profiles.companyName,
      phone: profiles.companyPhone,
      category: profiles.companyCategory,
      description: profiles.companyDescription,
      timeZone: profiles.timeZone,
      website: profiles.companyWebsite,
      email: profiles.companyEmail,
    })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .get();
  return {
    name: row?.name?.trim() || "",
    phone: row?.phone?.trim() || null,
    category: row?.category ?? null,
    description: row?.description ?? null,
    timeZone: row?.timeZone ?? null,
    website: row?.website?.trim() || null,
    email: row?.email?.trim() || null,
  };
}

// ---- the agency's clients view ----

/**
 * One client's review figures (issue 41) in one statement: an aggregate over the reviews Google still lists, with the
 * stored Google average as a scalar subquery.
 */
export async function reviewClientFigures(db: Db, userId: string, now = new Date()): Promise<ReviewClientFigures> {
  const [figures] = await runReads(db, reviewClientFiguresRead(db, userId, now));
  return figures;
}

/** reviewClientFigures's query, for a caller's batch. */
export function reviewClientFiguresRead(db: Db, userId: string, now = new Date()) {
  const month = now.toISOString().slice(0, 7);
  const unanswered = sql`${reviews.replyComment} is null`;
  const query = db
    .select({
      total: sql<number>`count(*)`,
      newThisMonth: sql<number>`coalesce(sum(case when substr(${reviews.createTime}, 1, 7) = ${month} then 1 else 0 end), 0)`,
      googleAverage: sql<number | null>`(select ${reviewSettings.googleAverage} from ${reviewSettings} where ${reviewSettings.userId} = ${userId})`,
      meanStars: sql<number | null>`avg(case when ${reviews.stars} between 1 and 5 then ${reviews.stars} end)`,
      unanswered: sql<number>`coalesce(sum(case when ${unanswered} then 1 else 0 end), 0)`,
      lowUnanswered: sql<number>`coalesce(sum(case when ${unanswered} and ${reviews.stars} between 1 and 3 then 1 else 0 end), 0)`,
      replied: sql<number>`coalesce(sum(case when ${reviews.replyComment} is not null then 1 else 0 end), 0)`,
    })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), isNull(reviews.deletedAt)));
  return batchedRead([query], ([[row]]) =>
    reviewClientFiguresOf(row ?? { total: 0, newThisMonth: 0, googleAverage: null, meanStars: null, unanswered: 0, lowUnanswered: 0, replied: 0 }),
  );
}
