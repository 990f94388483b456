// Free-audit widgets and their leads (issue 21): the admin's list and edits, a lead's rows, the cron's reads.
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "./client";
import { seoReports, widgetLeads, widgets } from "./schema";
import type { LeadDto, LeadStatus, WidgetDto } from "../domain/widgets";

export type WidgetRow = typeof widgets.$inferSelect;
export type LeadRow = typeof widgetLeads.$inferSelect;

export function widgetJson(row: WidgetRow, leads: number): WidgetDto {
  let origins: string[];
  try {
    origins = JSON.parse(row.origins) as string[];
  } catch {
    origins = [];
  }
  return {
    id: row.id,
    name: row.name,
    accent: row.accent,
    logoUrl: row.logoUrl,
    askWebsite: row.askWebsite,
    askPhone: row.askPhone,
    consentText: row.consentText,
    origins,
    active: row.active,
    createdAt: row.createdAt,
    leads,
  };
}

export function originsOf(row: WidgetRow): string[] {
  return widgetJson(row, 0).origins;
}

export async function listWidgets(db: Db): Promise<WidgetDto[]> {
  const rows = await db
    // Qualified by hand: inside the subquery a bare "id" would be the lead's own.
    .select({ widget: widgets, leads: sql<number>`(select count(*) from widget_leads where widget_leads.widget_id = widgets.id)` })
    .from(widgets)
    .orderBy(desc(widgets.createdAt))
    .limit(200);
  return rows.map((r) => widgetJson(r.widget, Number(r.leads)));
}

export async function getWidget(db: Db, id: string): Promise<WidgetRow | null> {
  return (await db.select().from(widgets).where(eq(widgets.id, id)).limit(1))[0] ?? null;
}

export async function insertWidget(db: Db, values: Omit<typeof widgets.$inferInsert, "id">): Promise<WidgetRow> {
  return (await db.insert(widgets).values({ id: crypto.randomUUID(), ...values }).returning())[0]!;
}

export async function updateWidget(db: Db, id: string, values: Partial<typeof widgets.$inferInsert>): Promise<WidgetRow | null> {
  const rows = await db
    .update(widgets)
    .set({ ...values, updatedAt: new Date().toISOString() })
    .where(eq(widgets.id, id))
    .returning();
  return rows[0] ?? null;
}

export async function deleteWidget(db: Db, id: string): Promise<boolean> {
  return (await db.delete(widgets).where(eq(widgets.id, id)).returning({ id: widgets.id })).length > 0;
}

function leadJson(row: LeadRow, businessName: string): LeadDto {
  return {
    id: row.id,
    widgetId: row.widgetId,
    prospectId: row.prospectId,
    reportId: row.reportId,
    status: row.status,
    businessName,
    visitorEmail: row.visitorEmail,
    createdAt: row.createdAt,
    mailedAt: row.mailedAt,
  };
}

export async function recentLeads(db: Db, widgetId: string, limit = 20): Promise<LeadDto[]> {
  const rows = await db
    .select({ lead: widgetLeads, name: sql<string>`(select name from prospects where prospects.id = ${widgetLeads.prospectId})` })
    .from(widgetLeads)
    .where(eq(widgetLeads.widgetId, widgetId))
    .orderBy(desc(widgetLeads.createdAt))
    .limit(limit);
  return rows.map((r) => leadJson(r.lead, r.name ?? ""));
}

export async function insertLead(db: Db, values: typeof widgetLeads.$inferInsert): Promise<LeadRow> {
  return (await db.insert(widgetLeads).values(values).returning())[0]!;
}

export async function getLead(db: Db, widgetId: string, leadId: string): Promise<LeadRow | null> {
  return (await db.select().from(widgetLeads).where(and(eq(widgetLeads.id, leadId), eq(widgetLeads.widgetId, widgetId))).limit(1))[0] ?? null;
}

/** A waiting lead started: status running with its audit (compare-and-set on waiting, so the cron starts it once). */
export async function claimWaitingLead(db: Db, leadId: string): Promise<boolean> {
  const rows = await db
    .update(widgetLeads)
    .set({ status: "running", queuedForAllowance: false })
    .where(and(eq(widgetLeads.id, leadId), eq(widgetLeads.status, "waiting_allowance")))
    .returning({ id: widgetLeads.id });
  return rows.length > 0;
}

export async function setLeadAudit(db: Db, leadId: string, auditId: string | null): Promise<void> {
  await db.update(widgetLeads).set({ auditId }).where(eq(widgetLeads.id, leadId));
}

export async function setLeadStatus(db: Db, leadId: string, status: LeadStatus): Promise<void> {
  await db.update(widgetLeads).set({ status }).where(eq(widgetLeads.id, leadId));
}

/** Claims the lead's one mail: true only for the first caller (mailed_at was null). */
export async function claimLeadMail(db: Db, leadId: string, now = new Date().toISOString()): Promise<boolean> {
  const rows = await db
    .update(widgetLeads)
    .set({ mailedAt: now, status: "ready" })
    .where(and(eq(widgetLeads.id, leadId), isNull(widgetLeads.mailedAt)))
    .returning({ id: widgetLeads.id });
  return rows.length > 0;
}

/** Gives the claim back when the mail could not be stored, so the cron tries again. */
export async function releaseLeadMail(db: Db, leadId: string): Promise<void> {
  await db.update(widgetLeads).set({ mailedAt: null, status: "running" }).where(eq(widgetLeads.id, leadId));
}

export async function leadsOfReport(db: Db, reportId: string): Promise<LeadRow[]> {
  return db.select().from(widgetLeads).where(eq(widgetLeads.reportId, reportId)).limit(10);
}

/** The cron's work: leads waiting for allowance (oldest first) and running leads whose report is ready but not mailed. */
export async function leadsToSweep(db: Db, limit = 50): Promise<{ waiting: LeadRow[]; unmailed: LeadRow[] }> {
  const [waiting, unmailed] = await db.batch([
    db.select().from(widgetLeads).where(eq(widgetLeads.status, "waiting_allowance")).orderBy(widgetLeads.createdAt).limit(limit),
    db
      .select({ lead: widgetLeads })
      .from(widgetLeads)
      .innerJoin(seoReports, eq(seoReports.id, widgetLeads.reportId))
      .where(and(eq(widgetLeads.status, "running"), isNull(widgetLeads.mailedAt), eq(seoReports.status, "ready")))
      .limit(limit),
  ]);
  return { waiting, unmailed: unmailed.map((r) => r.lead) };
}

export async function widgetsByIds(db: Db, ids: string[]): Promise<WidgetRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(widgets).where(inArray(widgets.id, ids.slice(0, 90)));
}
