// Queries of the Jobs panel: reports not finished with AI content, and their reset to queued for regeneration.
import { and, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { prospects } from "../prospects/tables";
import { seoReports } from "./tables";

/** queued, generating, failed, or ready on template content. */
const isJob = or(
  inArray(seoReports.status, ["queued", "generating", "failed"]),
  and(eq(seoReports.status, "ready"), eq(seoReports.source, "template")),
);

/** failed, or ready on template content: what "Regenerate" may restart. */
const isRegenerable = or(eq(seoReports.status, "failed"), and(eq(seoReports.status, "ready"), eq(seoReports.source, "template")));

const jobColumns = {
  id: seoReports.id,
  status: seoReports.status,
  source: seoReports.source,
  attempts: seoReports.attempts,
  lastError: seoReports.lastError,
  claimedAt: seoReports.claimedAt,
  createdAt: seoReports.createdAt,
  generatedAt: seoReports.generatedAt,
  prospectId: prospects.id,
  name: prospects.name,
  companyName: prospects.companyName,
};

const STATUS_ORDER = sql`case ${seoReports.status} when 'generating' then 0 when 'queued' then 1 when 'failed' then 2 else 3 end`;

export async function listReportJobs(db: Db, limit: number) {
  // Not db.batch: D1's batch answers rows as objects, so the join's two `id` columns would collide.
  const [rows, counts] = await Promise.all([
    db
      .select(jobColumns)
      .from(seoReports)
      .innerJoin(prospects, eq(prospects.id, seoReports.prospectId))
      .where(isJob)
      .orderBy(STATUS_ORDER, desc(seoReports.createdAt), desc(seoReports.id))
      .limit(limit),
    db
      .select({ status: seoReports.status, source: seoReports.source, n: count() })
      .from(seoReports)
      .where(isJob)
      .groupBy(seoReports.status, seoReports.source),
  ]);
  return { rows, counts };
}
export type ReportJobRow = Awaited<ReturnType<typeof listReportJobs>>["rows"][number];

export async function getReportJob(db: Db, id: string) {
  const rows = await db
    .select(jobColumns)
    .from(seoReports)
    .innerJoin(prospects, eq(prospects.id, seoReports.prospectId))
    .where(eq(seoReports.id, id))
    .limit(1);
  return rows[0] ?? null;
}

const resetToQueued = () => ({ status: "queued" as const, claimedAt: new Date().toISOString(), attempts: 0, lastError: null });

/** draft/failed/template → queued (compare-and-set): true when this call reset it. */
export async function markForRegeneration(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(seoReports)
    .set(resetToQueued())
    .where(and(eq(seoReports.id, id), or(isRegenerable, eq(seoReports.status, "draft"))))
    .returning({ id: seoReports.id });
  return rows.length > 0;
}

/** Every failed/template report → queued, in one statement. Returns the ids to send. */
export async function markAllForRegeneration(db: Db): Promise<string[]> {
  const rows = await db.update(seoReports).set(resetToQueued()).where(isRegenerable).returning({ id: seoReports.id });
  return rows.map((r) => r.id);
}
