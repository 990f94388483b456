// Queries behind the monthly client report's shared link (issue 30): the report by its token, its views, its PDF.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { clientReports } from "./tables";

/** What the shared page and PDF need of one report: its state, version and payload (JSON), and what is stored of it. */
export async function clientReportByToken(db: Db, token: string) {
  const [row] = await db
    .select({
      id: clientReports.id,
      userId: clientReports.userId,
      month: clientReports.month,
      status: clientReports.status,
      version: clientReports.version,
      payload: clientReports.payload,
      pdfKey: clientReports.pdfKey,
      pdfBytes: clientReports.pdfBytes,
    })
    .from(clientReports)
    .where(eq(clientReports.shareToken, token))
    .limit(1);
  return row ?? null;
}
export type SharedClientReportRow = NonNullable<Awaited<ReturnType<typeof clientReportByToken>>>;

/** Only the head (the page's cache key, the beacon): which report, its state and version, without the payload. */
export async function clientReportHead(db: Db, token: string) {
  const [row] = await db
    .select({ id: clientReports.id, userId: clientReports.userId, month: clientReports.month, status: clientReports.status, version: clientReports.version })
    .from(clientReports)
    .where(eq(clientReports.shareToken, token))
    .limit(1);
  return row ?? null;
}

/**
 * Counts one view at `at`: views + 1, last_opened_at, and first_opened_at the first time. `first` is true for the one
 * view that set first_opened_at (the statement is atomic, so two first views at once give one first).
 */
export async function recordClientReportView(db: Db, id: string, at: string): Promise<{ first: boolean; views: number } | null> {
  const [row] = await db
    .update(clientReports)
    .set({
      views: sql`${clientReports.views} + 1`,
      lastOpenedAt: at,
      firstOpenedAt: sql`coalesce(${clientReports.firstOpenedAt}, ${at})`,
    })
    .where(and(eq(clientReports.id, id), eq(clientReports.status, "ready")))
    .returning({ views: clientReports.views, firstOpenedAt: clientReports.firstOpenedAt });
  if (!row) return null;
  return { first: row.firstOpenedAt === at, views: row.views };
}

/** Records the stored PDF of a version; a rebuild that landed since (another version) is left alone. */
export async function setClientReportPdf(db: Db, id: string, version: number, pdf: { key: string; bytes: number }): Promise<boolean> {
  const rows = await db
    .update(clientReports)
    .set({ pdfKey: pdf.key, pdfBytes: pdf.bytes })
    .where(and(eq(clientReports.id, id), eq(clientReports.version, version)))
    .returning({ id: clientReports.id });
  return rows.length > 0;
}

/** The month and payload of one report (what its first-open alert names). */
export async function clientReportMonthAndPayload(db: Db, id: string) {
  const [row] = await db.select({ month: clientReports.month, payload: clientReports.payload }).from(clientReports).where(eq(clientReports.id, id)).limit(1);
  return row ?? null;
}
