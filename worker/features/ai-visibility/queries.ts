// AI Visibility (issue 29): questions per business, scans and their answers (each claimed by compare-and-set before its
// call, so a redelivered message calls nothing twice), the weekly scan claimed once per business and week.
import { and, asc, desc, eq, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { newestRow, type Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { aiAnswers, aiQuestions, aiScans } from "./tables";
import { seoReports } from "../reports/tables";

export type AiQuestionRow = typeof aiQuestions.$inferSelect;
export type AiScanRow = typeof aiScans.$inferSelect;
export type AiAnswerRow = typeof aiAnswers.$inferSelect;

export type AiOwner = { kind: "own"; userId: string } | { kind: "prospect"; prospectId: string };

export function aiOwnerKey(owner: AiOwner): string {
  return owner.kind === "own" ? `own:${owner.userId}` : `prospect:${owner.prospectId}`;
}

// ——— questions ———

export async function listAiQuestions(db: Db, ownerKey: string): Promise<AiQuestionRow[]> {
  return db.select().from(aiQuestions).where(eq(aiQuestions.ownerKey, ownerKey)).orderBy(asc(aiQuestions.createdAt), asc(aiQuestions.id));
}

export async function countAiQuestions(db: Db, ownerKey: string): Promise<number> {
  return Number(await db.$count(aiQuestions, eq(aiQuestions.ownerKey, ownerKey)));
}

export async function insertAiQuestions(db: Db, rows: (typeof aiQuestions.$inferInsert)[]): Promise<AiQuestionRow[]> {
  if (rows.length === 0) return [];
  // Drizzle binds every column of a row (8): 10 rows a statement stay under D1's 100 bound parameters.
  const out: AiQuestionRow[] = [];
  for (let i = 0; i < rows.length; i += 10) out.push(...(await db.insert(aiQuestions).values(rows.slice(i, i + 10)).returning()));
  return out;
}

export async function getAiQuestion(db: Db, id: string): Promise<AiQuestionRow | null> {
  const rows = await db.select().from(aiQuestions).where(eq(aiQuestions.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateAiQuestion(db: Db, id: string, patch: { text?: string; tracked?: boolean }): Promise<AiQuestionRow | null> {
  const rows = await db.update(aiQuestions).set(patch).where(eq(aiQuestions.id, id)).returning();
  return rows[0] ?? null;
}

export async function deleteAiQuestion(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(aiQuestions).where(eq(aiQuestions.id, id)).returning({ id: aiQuestions.id });
  return rows.length > 0;
}

/** The businesses with tracked questions, and who pays for their weekly scan (the owner, or the admin keeping them). */
export async function trackedAiBusinesses(db: Db, limit = 200): Promise<{ ownerKey: string; kind: "own" | "prospect"; userId: string; prospectId: string | null }[]> {
  return db
    .selectDistinct({ ownerKey: aiQuestions.ownerKey, kind: aiQuestions.kind, userId: aiQuestions.userId, prospectId: aiQuestions.prospectId })
    .from(aiQuestions)
    .where(eq(aiQuestions.tracked, true))
    .groupBy(aiQuestions.ownerKey)
    .limit(limit);
}

// ——— scans ———

/** The scan and its answers; `onConflictDoNothing` on the weekly unique (business, week): null when that week's was made. */
export async function createAiScan(db: Db, scan: typeof aiScans.$inferInsert, answers: { id: string; questionId: string; engine: string; sample: number }[]): Promise<AiScanRow | null> {
  const inserted = await db.insert(aiScans).values(scan).onConflictDoNothing().returning();
  const row = inserted[0];
  if (!row) return null;
  const rows = answers.map((a) => ({ ...a, scanId: row.id }));
  // Drizzle binds every column of a row (15): 6 rows a statement stay under D1's 100 bound parameters.
  const inserts = [];
  for (let i = 0; i < rows.length; i += 6) inserts.push(db.insert(aiAnswers).values(rows.slice(i, i + 6)));
  try {
    if (inserts.length > 0) await db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  } catch (error) {
    await db.delete(aiScans).where(eq(aiScans.id, row.id));
    throw error;
  }
  return row;
}

export async function getAiScan(db: Db, id: string): Promise<AiScanRow | null> {
  const rows = await db.select().from(aiScans).where(eq(aiScans.id, id)).limit(1);
  return rows[0] ?? null;
}

/** A message's scan and the engine of each of its answers (what their reservations cost), in one round trip. */
export async function getAiScanAndEngines(db: Db, id: string, answerIds: string[]): Promise<{ scan: AiScanRow | null; engines: Map<string, string> }> {
  const [scans, answers] = await db.batch([
    db.select().from(aiScans).where(eq(aiScans.id, id)).limit(1),
    db
      .select({ id: aiAnswers.id, engine: aiAnswers.engine })
      .from(aiAnswers)
      .where(and(eq(aiAnswers.scanId, id), inArray(aiAnswers.id, answerIds))),
  ]);
  return { scan: scans[0] ?? null, engines: new Map(answers.map((a) => [a.id, a.engine])) };
}

export async function getAiScanWithAnswers(db: Db, id: string): Promise<{ scan: AiScanRow; answers: AiAnswerRow[] } | null> {
  const [scans, answers] = await db.batch([
    db.select().from(aiScans).where(eq(aiScans.id, id)).limit(1),
    db.select().from(aiAnswers).where(eq(aiAnswers.scanId, id)).orderBy(asc(aiAnswers.questionId), asc(aiAnswers.engine), asc(aiAnswers.sample)),
  ]);
  const scan = scans[0];
  return scan ? { scan, answers } : null;
}

/** A business's scans, newest first. */
export async function listAiScans(db: Db, ownerKey: string, limit = 52): Promise<AiScanRow[]> {
  return db.select().from(aiScans).where(eq(aiScans.ownerKey, ownerKey)).orderBy(desc(aiScans.createdAt)).limit(limit);
}

/** The finished scan of the same business made before this one (the weekly alert compares with it). */
export async function previousDoneAiScan(db: Db, scan: Pick<AiScanRow, "ownerKey" | "createdAt" | "id">): Promise<AiScanRow | null> {
  return newestRow(db, aiScans, and(eq(aiScans.ownerKey, scan.ownerKey), lt(aiScans.createdAt, scan.createdAt), eq(aiScans.status, "done"), ne(aiScans.id, scan.id)), aiScans.createdAt);
}

/** The newest finished scan of a business (reports and chats). */
export async function latestDoneAiScan(db: Db, ownerKey: string): Promise<AiScanRow | null> {
  return newestRow(db, aiScans, and(eq(aiScans.ownerKey, ownerKey), eq(aiScans.status, "done")), aiScans.createdAt);
}

// ——— answers ———

export async function getAiAnswer(db: Db, id: string): Promise<{ answer: AiAnswerRow; scan: AiScanRow } | null> {
  const rows = await db.select({ answer: aiAnswers, scan: aiScans }).from(aiAnswers).innerJoin(aiScans, eq(aiScans.id, aiAnswers.scanId)).where(eq(aiAnswers.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * An answer as a shared report may show it: only when it belongs to the scan that report shows (its prospect's newest
 * finished scan); null otherwise, so a shared report never opens another business's answers. One statement.
 */
export async function getSharedReportAiAnswer(db: Db, reportId: string, answerId: string): Promise<{ answer: AiAnswerRow; scan: AiScanRow } | null> {
  const prospectId = sql`(select ${seoReports.prospectId} from ${seoReports} where ${seoReports.id} = ${reportId})`;
  const shown = sql`(select s.id from ai_scans s where s.owner_key = 'prospect:' || ${prospectId} and s.status = 'done' order by s.created_at desc limit 1)`;
  const rows = await db
    .select({ answer: aiAnswers, scan: aiScans })
    .from(aiAnswers)
    .innerJoin(aiScans, eq(aiScans.id, aiAnswers.scanId))
    .where(and(eq(aiAnswers.id, answerId), sql`${aiScans.id} = ${shown}`))
    .limit(1);
  return rows[0] ?? null;
}

/** An answer as a job: queued → claimed, taken again when its claim went stale; only the claimed ones are asked. */
export const aiAnswerJob = defineJob({
  table: aiAnswers,
  rows: (scanId: string, ids: string[]) => and(eq(aiAnswers.scanId, scanId), inArray(aiAnswers.id, ids)),
  status: { column: aiAnswers.status, from: ["queued"], to: "claimed" },
  claimedAt: aiAnswers.claimedAt,
  attempts: aiAnswers.attempts,
});

/** The scan marked running with its first claim (a no-op once it runs). */
export function aiScanRunning(db: Db, scanId: string) {
  return db.update(aiScans).set({ status: "running" }).where(and(eq(aiScans.id, scanId), eq(aiScans.status, "queued")));
}

/** True, in a statement later in the claim's batch, when the answer is under the claim made at `claimedAt`. */
export function underClaim(id: string, claimedAt: string): SQL {
  return sql`exists (select 1 from ${aiAnswers} where ${aiAnswers.id} = ${id} and ${aiAnswers.status} = 'claimed' and ${aiAnswers.claimedAt} = ${claimedAt})`;
}

/** Gives a claim back (a retry asks again); only under the claim. */
export async function releaseAiAnswer(db: Db, id: string, claimedAt: string): Promise<void> {
  await db
    .update(aiAnswers)
    .set({ status: "queued", claimedAt: null })
    .where(and(eq(aiAnswers.id, id), eq(aiAnswers.status, "claimed"), eq(aiAnswers.claimedAt, claimedAt)));
}

export type StoredAnswer =
  | { status: "ok"; model: string | null; r2Key: string; named: unknown; domains: string[]; ownCited: boolean }
  | { status: "failed"; error: string };

/**
 * Stores an answer under its claim, then the scan's counters from its answers (one round trip). The claim's time stays
 * on the row: `asked_at − claimed_at` is the answer's time from claim to stored (the bench's overhead figure).
 */
export async function storeAiAnswer(db: Db, scanId: string, id: string, claimedAt: string | null, outcome: StoredAnswer): Promise<boolean> {
  const [rows] = (await db.batch(storeAiAnswerStatements(db, scanId, id, claimedAt, outcome))) as [{ id: string }[], unknown];
  return rows.length > 0;
}

/** `storeAiAnswer`'s statements, for a caller that writes them beside its own (the meter's settle); the first answers the stored row. */
export function storeAiAnswerStatements(db: Db, scanId: string, id: string, claimedAt: string | null, outcome: StoredAnswer) {
  const now = new Date().toISOString();
  const set =
    outcome.status === "ok"
      ? { status: "ok" as const, model: outcome.model, r2Key: outcome.r2Key, named: JSON.stringify(outcome.named), domains: JSON.stringify(outcome.domains), ownCited: outcome.ownCited, error: null, askedAt: now }
      : { status: "failed" as const, error: outcome.error, askedAt: now };
  const where =
    claimedAt === null
      ? and(eq(aiAnswers.id, id), inArray(aiAnswers.status, ["queued", "claimed"]))
      : and(eq(aiAnswers.id, id), eq(aiAnswers.status, "claimed"), eq(aiAnswers.claimedAt, claimedAt));
  return [db.update(aiAnswers).set(set).where(where).returning({ id: aiAnswers.id }), refreshCounters(db, scanId)] as const;
}

function refreshCounters(db: Db, scanId: string) {
  return db
    .update(aiScans)
    .set({
      done: sql`(select count(*) from ${aiAnswers} where ${aiAnswers.scanId} = ${scanId} and ${aiAnswers.status} in ('ok', 'failed'))`,
      failed: sql`(select count(*) from ${aiAnswers} where ${aiAnswers.scanId} = ${scanId} and ${aiAnswers.status} = 'failed')`,
    })
    .where(eq(aiScans.id, scanId));
}

/** The one caller that sees every answer in takes the scan's finishing (compare-and-set); the others get null. */
export async function beginFinishAiScan(db: Db, scanId: string, now: string): Promise<AiScanRow | null> {
  const rows = await db
    .update(aiScans)
    .set({ finishingAt: now })
    .where(and(eq(aiScans.id, scanId), isNull(aiScans.finishingAt), sql`${aiScans.done} >= ${aiScans.total}`))
    .returning();
  return rows[0] ?? null;
}

export async function finishAiScan(
  db: Db,
  scanId: string,
  fields: { status: "done" | "failed"; summary: string; actions: string | null; actionsSource: "ai" | "template" | null; costMicro: number },
): Promise<void> {
  await db
    .update(aiScans)
    .set({ ...fields, finishedAt: new Date().toISOString() })
    .where(eq(aiScans.id, scanId));
}

/** Dead letters: the message's answers that never finished are failed with the reason. */
export async function failUnfinishedAiAnswers(db: Db, scanId: string, ids: string[], reason: string): Promise<number> {
  const [rows] = await db.batch([
    db
      .update(aiAnswers)
      .set({ status: "failed", error: reason, claimedAt: null, askedAt: new Date().toISOString() })
      .where(and(eq(aiAnswers.scanId, scanId), inArray(aiAnswers.id, ids), inArray(aiAnswers.status, ["queued", "claimed"])))
      .returning({ id: aiAnswers.id }),
    refreshCounters(db, scanId),
  ]);
  return rows.length;
}

/** Unfinished answers of scans made before `before` (a lost message): the cron sends them again; claims keep them single. */
export async function staleAiAnswers(db: Db, before: string, limit = 300): Promise<{ scanId: string; id: string }[]> {
  return db
    .select({ scanId: aiAnswers.scanId, id: aiAnswers.id })
    .from(aiAnswers)
    .innerJoin(aiScans, eq(aiScans.id, aiAnswers.scanId))
    .where(and(inArray(aiAnswers.status, ["queued", "claimed"]), lt(aiScans.createdAt, before)))
    .limit(limit);
}

/** Scans whose answers are all in but whose figures were never computed (the finisher died): the cron finishes them. */
export async function unfinishedCompleteAiScans(db: Db, staleBefore: string, limit = 20): Promise<AiScanRow[]> {
  return db
    .select()
    .from(aiScans)
    .where(and(inArray(aiScans.status, ["queued", "running"]), sql`${aiScans.done} >= ${aiScans.total}`, or(isNull(aiScans.finishingAt), lt(aiScans.finishingAt, staleBefore))))
    .limit(limit);
}

/** Frees a stale finishing claim so beginFinishAiScan can take it again. */
export async function resetAiFinishing(db: Db, scanId: string, seen: string | null): Promise<void> {
  await db
    .update(aiScans)
    .set({ finishingAt: null })
    .where(and(eq(aiScans.id, scanId), seen === null ? isNull(aiScans.finishingAt) : eq(aiScans.finishingAt, seen)));
}

export async function updateAiScanCompetitors(db: Db, scanId: string, competitors: string): Promise<void> {
  await db.update(aiScans).set({ competitors }).where(eq(aiScans.id, scanId));
}

/** The businesses whose weekly scan of `week` was made (the cron skips them). */
export async function weeklyAiScanOwners(db: Db, week: string): Promise<Set<string>> {
  const rows = await db.select({ ownerKey: aiScans.ownerKey }).from(aiScans).where(eq(aiScans.week, week));
  return new Set(rows.map((r) => r.ownerKey));
}

export async function trackedAiQuestionsOf(db: Db, ownerKey: string): Promise<AiQuestionRow[]> {
  return db
    .select()
    .from(aiQuestions)
    .where(and(eq(aiQuestions.ownerKey, ownerKey), eq(aiQuestions.tracked, true)))
    .orderBy(asc(aiQuestions.createdAt), asc(aiQuestions.id));
}

/** The prospect's newest finished scan, for a batch (`prospectId` a value or a subquery): the report, its prompt and the chats. */
export function latestProspectAiScanQuery(db: Db, prospectId: string | SQL) {
  return db
    .select()
    .from(aiScans)
    .where(and(eq(aiScans.ownerKey, sql`'prospect:' || ${prospectId}`), eq(aiScans.status, "done")))
    .orderBy(desc(aiScans.createdAt))
    .limit(1);
}

// ——— the agency's clients view ———

