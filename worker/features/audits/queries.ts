// Audits and their steps (issue 18): create with its four step rows, claim a step once (compare-and-set), store a
// step's result as soon as it finishes, read one audit with its steps, list a business's audits.
import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { AuditStepId } from "./rules/view";
import { newestRow, type Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { auditChatBlocks, audits, auditSteps } from "./tables";
import { prospects } from "../prospects/tables";
import { seoReports } from "../reports/tables";

export type AuditRow = typeof audits.$inferSelect;
export type AuditStepRow = typeof auditSteps.$inferSelect;
export type StepStatus = AuditStepRow["status"];

/** What the audit searched for, kept as it was when the audit was made. */
export type AuditSubjectRecord = {
  name: string;
  website: string | null;
  keyword: string | null;
  area: string | null;
  phone: string | null;
  address: string | null;
};

export async function createAudit(
  db: Db,
  input: { kind: "prospect" | "own"; prospectId: string | null; userId: string; subject: AuditSubjectRecord; skipped: Partial<Record<AuditStepId, string>> },
): Promise<AuditRow> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const steps: AuditStepId[] = ["find", "fetch", "speed", "rank"];
  const [inserted] = await db.batch([
    db
      .insert(audits)
      .values({ id, kind: input.kind, prospectId: input.prospectId, userId: input.userId, subject: JSON.stringify(input.subject), createdAt: now })
      .returning(),
    db.insert(auditSteps).values(
      steps.map((step) => {
        const reason = input.skipped[step];
        return reason === undefined
          ? { auditId: id, step }
          : { auditId: id, step, status: "skipped" as const, reason, finishedAt: now };
      }),
    ),
  ]);
  return inserted[0]!;
}

export async function getAudit(db: Db, id: string): Promise<{ audit: AuditRow; steps: AuditStepRow[] } | null> {
  const [rows, steps] = await db.batch([
    db.select().from(audits).where(eq(audits.id, id)).limit(1),
    db.select().from(auditSteps).where(eq(auditSteps.auditId, id)),
  ]);
  const audit = rows[0];
  return audit ? { audit, steps } : null;
}

/** A business's audits, newest first: a prospect's, or a user's own business's. */
export async function listAudits(db: Db, who: { prospectId: string } | { ownerId: string }, limit = 50): Promise<AuditRow[]> {
  const where = "prospectId" in who ? eq(audits.prospectId, who.prospectId) : and(eq(audits.userId, who.ownerId), eq(audits.kind, "own"));
  return db.select().from(audits).where(where).orderBy(desc(audits.createdAt)).limit(limit);
}

export async function latestAudit(db: Db, who: { prospectId: string } | { ownerId: string }): Promise<AuditRow | null> {
  return (await listAudits(db, who, 1))[0] ?? null;
}

/** The prospect a report is about, as a subquery: reads that start from a report id go in the report's own batch. */
export function prospectOfReport(reportId: string): SQL {
  return sql`(select ${seoReports.prospectId} from ${seoReports} where ${seoReports.id} = ${reportId})`;
}

/** The id of the prospect's newest audit, as a subquery (the order of `latestAudit`). */
function latestAuditId(prospectId: SQL | string): SQL {
  return sql`(select ${audits.id} from ${audits} where ${audits.prospectId} = ${prospectId} order by ${audits.createdAt} desc limit 1)`;
}

/**
 * The prospect's newest audit and its stored chat block (null when none is stored for its current finish): one
 * statement for a caller's batch.
 */
export function latestAuditQuery(db: Db, prospectId: SQL | string) {
  const chatBlock = sql<string | null>`(select b.block from ${auditChatBlocks} b where b.audit_id = ${audits.id}
    and b.audit_finished_at = ${audits.finishedAt} and ${audits.status} = 'done')`;
  return db
    .select({ audit: audits, chatBlock: chatBlock.as("stored_chat_block") })
    .from(audits)
    .where(eq(audits.prospectId, prospectId))
    .orderBy(desc(audits.createdAt))
    .limit(1);
}

/** The step's audit has no chat block stored for its current finish. */
const notChatBlockStored = sql`not exists (select 1 from ${audits} a join ${auditChatBlocks} b on b.audit_id = a.id
  where a.id = ${auditSteps.auditId} and a.status = 'done' and b.audit_finished_at = a.finished_at)`;

/**
 * The steps of the prospect's newest audit, for a caller's batch. `unlessChatBlock`: none when the audit's chat
 * block is stored (a chat message then needs nothing more of it).
 */
export function latestAuditStepsQuery(db: Db, prospectId: SQL | string, opts: { unlessChatBlock?: boolean } = {}) {
  return db
    .select()
    .from(auditSteps)
    .where(and(eq(auditSteps.auditId, latestAuditId(prospectId)), opts.unlessChatBlock ? notChatBlockStored : undefined));
}

/** Keeps a finished audit's chat block; nothing when the audit changed since (re-run steps, a new finish). */
export async function storeAuditChatBlock(db: Db, audit: Pick<AuditRow, "id" | "finishedAt">, block: string): Promise<void> {
  if (!audit.finishedAt) return;
  await db
    .insert(auditChatBlocks)
    .select(
      db
        .select({
          auditId: audits.id,
          auditFinishedAt: sql<string>`${audits.finishedAt}`.as("audit_finished_at"),
          block: sql<string>`${block}`.as("block"),
        })
        .from(audits)
        .where(and(eq(audits.id, audit.id), eq(audits.status, "done"), eq(audits.finishedAt, audit.finishedAt))),
    )
    .onConflictDoUpdate({
      target: auditChatBlocks.auditId,
      set: { auditFinishedAt: sql`excluded.audit_finished_at`, block: sql`excluded.block` },
    });
}

/** The audit made before this one of the same business (for "how the score moved"). */
export async function previousAudit(db: Db, audit: AuditRow): Promise<AuditRow | null> {
  const same = audit.prospectId ? eq(audits.prospectId, audit.prospectId) : and(eq(audits.userId, audit.userId ?? ""), eq(audits.kind, "own"));
  return newestRow(db, audits, and(same, lt(audits.createdAt, audit.createdAt)), audits.createdAt);
}

/**
 * An audit step as a job: a delivery takes it pending, or running with a claim older than its stale cut (a worker that
 * died). Nothing is won when another delivery has it or it is finished: a redelivered message never does a step twice.
 */
export const auditStepJob = defineJob({
  table: auditSteps,
  rows: (auditId: string, step: AuditStepId) => and(eq(auditSteps.auditId, auditId), eq(auditSteps.step, step)),
  status: { column: auditSteps.status, from: ["pending"], to: "running" },
  claimedAt: auditSteps.claimedAt,
  attempts: auditSteps.attempts,
});

/** The audit marked running with its first claim (a no-op unless it was still queued). */
export function auditRunning(db: Db, auditId: string) {
  return db.update(audits).set({ status: "running" }).where(and(eq(audits.id, auditId), eq(audits.status, "queued")));
}

/** Stores a finished step under its claim (a lost claim stores nothing and answers false). */
export async function finishStep(
  db: Db,
  auditId: string,
  step: AuditStepId,
  claimedAt: string,
  outcome: { status: "done" | "failed" | "skipped"; reason: string | null; result: unknown },
): Promise<boolean> {
  const rows = await db
    .update(auditSteps)
    .set({ status: outcome.status, reason: outcome.reason, result: outcome.result === undefined ? null : JSON.stringify(outcome.result), finishedAt: new Date().toISOString() })
    .where(and(eq(auditSteps.auditId, auditId), eq(auditSteps.step, step), eq(auditSteps.status, "running"), eq(auditSteps.claimedAt, claimedAt)))
    .returning({ step: auditSteps.step });
  return rows.length > 0;
}

/** Gives a claimed step back for the queue's retry, keeping the reason of this try. */
export async function releaseStep(db: Db, auditId: string, step: AuditStepId, claimedAt: string, reason: string): Promise<void> {
  await db
    .update(auditSteps)
    .set({ status: "pending", reason, claimedAt: null })
    .where(and(eq(auditSteps.auditId, auditId), eq(auditSteps.step, step), eq(auditSteps.claimedAt, claimedAt)));
}

/** Puts finished steps back to pending so they run again (the listing was picked by hand). */
export async function reopenSteps(db: Db, auditId: string, steps: AuditStepId[], listingChoice: string | null): Promise<void> {
  await db.batch([
    // claimedAt stamps when the step was reopened: the step's deadline counts from it (a claim replaces it).
    db.update(auditSteps).set({ status: "pending", claimedAt: new Date().toISOString(), attempts: 0 }).where(and(eq(auditSteps.auditId, auditId), inArray(auditSteps.step, steps))),
    db.update(audits).set({ status: "running", finishedAt: null, ...(listingChoice !== null ? { listingChoice } : {}) }).where(eq(audits.id, auditId)),
  ]);
}

/** A step that reached the dead-letter queue: failed with the reason, whatever its state (unless finished). */
export async function failUnfinishedStep(db: Db, auditId: string, step: AuditStepId, reason: string): Promise<boolean> {
  const rows = await db
    .update(auditSteps)
    .set({ status: "failed", reason, finishedAt: new Date().toISOString(), claimedAt: null })
    .where(and(eq(auditSteps.auditId, auditId), eq(auditSteps.step, step), inArray(auditSteps.status, ["pending", "running"])))
    .returning({ step: auditSteps.step });
  return rows.length > 0;
}

/** The audit's status and score after a step finished: done once no step is pending or running. */
export async function updateAuditSummary(db: Db, auditId: string, done: boolean, overall: number | null): Promise<void> {
  await db
    .update(audits)
    .set(done ? { status: "done", overall, finishedAt: sql`coalesce(${audits.finishedAt}, ${new Date().toISOString()})` } : { status: "running", overall })
    .where(eq(audits.id, auditId));
}

export async function getProspectForAudit(db: Db, prospectId: string) {
  const rows = await db.select().from(prospects).where(eq(prospects.id, prospectId)).limit(1);
  return rows[0] ?? null;
}

export async function setProspectWebsite(db: Db, prospectId: string, website: string | null): Promise<void> {
  await db.update(prospects).set({ website }).where(eq(prospects.id, prospectId));
}

/** Unfinished steps of audits started before `before` (a lost message, a worker that died): for the cron to send again. */
export async function staleSteps(db: Db, before: string, limit = 200): Promise<{ auditId: string; step: AuditStepId }[]> {
  return db
    .select({ auditId: auditSteps.auditId, step: auditSteps.step })
    .from(auditSteps)
    .innerJoin(audits, eq(audits.id, auditSteps.auditId))
    .where(and(inArray(auditSteps.status, ["pending", "running"]), lt(audits.createdAt, before)))
    .limit(limit);
}
