// Queries for shared-report view tracking: record one beacon (ignored when the visit sent it before) and the timeline.
import { desc, eq, sql } from "drizzle-orm";
import type { ReportEventName } from "./rules/events";
import type { Db } from "../../platform/db/client";
import { reportEvents, reportViewStats, seoReports } from "./tables";

/** Inserts the event unless this visit already sent it; true when it was new. The trigger keeps open counts. */
export async function recordReportEvent(
  db: Db,
  input: { reportId: string; visitId: string; event: ReportEventName; section: string | null },
): Promise<boolean> {
  const rows = await db
    .insert(reportEvents)
    .values({ reportId: input.reportId, visitId: input.visitId, event: input.event, section: input.section ?? "" })
    .onConflictDoNothing()
    .returning({ id: reportEvents.id });
  return rows.length > 0;
}

/** How many events the timeline lists at most. */
export const TIMELINE_LIMIT = 100;

/** Counts, sections read and the latest events of one report, in one round trip. */
export async function reportTimeline(db: Db, reportId: string) {
  const [stats, counts, sections, events] = await db.batch([
    db.select().from(reportViewStats).where(eq(reportViewStats.reportId, reportId)).limit(1),
    db
      .select({
        visits: sql<number>`count(distinct ${reportEvents.visitId})`,
        chatStarted: sql<number>`count(*) filter (where ${reportEvents.event} = 'chat_started')`,
        prints: sql<number>`count(*) filter (where ${reportEvents.event} = 'print')`,
      })
      .from(reportEvents)
      .where(eq(reportEvents.reportId, reportId)),
    db
      .select({ section: reportEvents.section, visits: sql<number>`count(*)` })
      .from(reportEvents)
      .where(sql`${reportEvents.reportId} = ${reportId} and ${reportEvents.event} = 'section_viewed'`)
      .groupBy(reportEvents.section),
    db
      .select({ event: reportEvents.event, section: reportEvents.section, at: reportEvents.createdAt, visit: reportEvents.visitId })
      .from(reportEvents)
      .where(eq(reportEvents.reportId, reportId))
      .orderBy(desc(reportEvents.createdAt), desc(reportEvents.id))
      .limit(TIMELINE_LIMIT),
  ]);
  return { stats: stats[0] ?? null, counts: counts[0] ?? { visits: 0, chatStarted: 0, prints: 0 }, sections, events };
}

/** What a beacon needs of its report in one read: its status, its prospect, and its last open so far (before this beacon). */
export async function beaconHead(db: Db, reportId: string) {
  const [row] = await db
    .select({ status: seoReports.status, prospectId: seoReports.prospectId, lastOpenedAt: reportViewStats.lastOpenedAt })
    .from(seoReports)
    .leftJoin(reportViewStats, eq(reportViewStats.reportId, seoReports.id))
    .where(eq(seoReports.id, reportId))
    .limit(1);
  return row ?? null;
}

/** How many sections one visit has read. */
export async function visitSectionCount(db: Db, reportId: string, visitId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(reportEvents)
    .where(sql`${reportEvents.reportId} = ${reportId} and ${reportEvents.visitId} = ${visitId} and ${reportEvents.event} = 'section_viewed'`);
  return row?.n ?? 0;
}
