// Free-audit widgets and their leads (issue 21): the admin's list and edits, a lead's rows, the cron's reads.
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { profiles } from "../../platform/auth/tables";
import { seoReports } from "../reports/tables";
import { widgetLeads, widgets } from "./tables";
import { dayPeriod, fromMicro } from "../../domain/metering";
import type { LeadDto, LeadStatus, WidgetDto } from "./rules/widgets";

export type WidgetRow = typeof widgets.$inferSelect;
export type LeadRow = typeof widgetLeads.$inferSelect;

/** A widget's figures beside its row: leads in all, and today's (UTC) leads and spend on its meter counter. */
export type WidgetCounts = { leads: number; leadsToday: number; spentTodayMicro: number };
const NO_COUNTS: WidgetCounts = { leads: 0, leadsToday: 0, spentTodayMicro: 0 };

export function widgetJson(row: WidgetRow, counts: WidgetCounts = NO_COUNTS, served = row.active): WidgetDto {
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
    served,
    createdAt: row.createdAt,
    leads: counts.leads,
    dailyCapUsd: row.dailyCapCents / 100,
    today: { leads: counts.leadsToday, spentUsd: fromMicro(counts.spentTodayMicro) },
  };
}

export function originsOf(row: WidgetRow): string[] {
  return widgetJson(row).origins;
}

/** The widget's counts as columns (qualified by hand: inside a subquery a bare "id" would be the lead's own). */
function countColumns(now: Date) {
  const day = dayPeriod(now).id;
  return {
    leads: sql<number>`(select count(*) from widget_leads where widget_leads.widget_id = widgets.id)`,
    leadsToday: sql<number>`(select count(*) from widget_leads where widget_leads.widget_id = widgets.id and widget_leads.created_at >= ${`${day}T00:00:00`})`,
    // The meter's counter of the widget's day (widgetCapKey): settled and reserved.
    spentTodayMicro: sql<number>`coalesce((select reserved_micro + settled_micro from meter_counters where meter_counters.key = 'widget:' || widgets.id || ${`:${day}`}), 0)`,
  };
}

function countsOf(r: { leads: number; leadsToday: number; spentTodayMicro: number }): WidgetCounts {
  return { leads: Number(r.leads), leadsToday: Number(r.leadsToday), spentTodayMicro: Number(r.spentTodayMicro) };
}

export async function listWidgets(db: Db, served: (row: WidgetRow) => boolean, now = new Date()): Promise<WidgetDto[]> {
  const rows = await db
    .select({ widget: widgets, ...countColumns(now) })
    .from(widgets)
    .orderBy(desc(widgets.createdAt))
    .limit(200);
  return rows.map((r) => widgetJson(r.widget, countsOf(r), served(r.widget)));
}

/** One widget with its counts, or null. */
export async function getWidgetWithCounts(db: Db, id: string, now = new Date()): Promise<{ row: WidgetRow; counts: WidgetCounts } | null> {
  const [r] = await db
    .select({ widget: widgets, ...countColumns(now) })
    .from(widgets)
    .where(eq(widgets.id, id))
    .limit(1);
  return r ? { row: r.widget, counts: countsOf(r) } : null;
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
    mailOutcome: row.mailOutcome,
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

/** A waiting lead as a job: claimed by starting it (waiting_allowance → running, so the cron starts it once). */
export const waitingLeadJob = defineJob({
  table: widgetLeads,
  rows: (leadId: string) => eq(widgetLeads.id, leadId),
  status: { column: widgetLeads.status, from: ["waiting_allowance"], to: "running" },
  set: () => ({ queuedForAllowance: false }),
});

export async function setLeadAudit(db: Db, leadId: string, auditId: string | null): Promise<void> {
  await db.update(widgetLeads).set({ auditId }).where(eq(widgetLeads.id, leadId));
}

export async function setLeadStatus(db: Db, leadId: string, status: LeadStatus): Promise<void> {
  await db.update(widgetLeads).set({ status }).where(eq(widgetLeads.id, leadId));
}

/** The lead's one mail as a job: won only by the first caller (mailed_at was null). */
export const leadMailJob = defineJob({
  table: widgetLeads,
  rows: (leadId: string) => and(eq(widgetLeads.id, leadId), isNull(widgetLeads.mailedAt)),
  set: (now) => ({ mailedAt: now, status: "ready" as const }),
});

/** Gives the claim back when the mail could not be stored, so the cron tries again. */
export async function releaseLeadMail(db: Db, leadId: string): Promise<void> {
  await db.update(widgetLeads).set({ mailedAt: null, mailOutcome: null, status: "running" }).where(eq(widgetLeads.id, leadId));
}

export async function setLeadMailOutcome(db: Db, leadId: string, outcome: "sent" | "limited"): Promise<void> {
  await db.update(widgetLeads).set({ mailOutcome: outcome }).where(eq(widgetLeads.id, leadId));
}

export type WidgetCap = { id: string; dailyCapCents: number };
const capColumns = { id: widgets.id, dailyCapCents: widgets.dailyCapCents };

/**
 * The widget whose lead this audit is: the lead's prospect, and its first audit (the lead's audit id may not be stored
 * yet when the first step runs). An admin's later audit of the same prospect is the agency's own work.
 */
export async function widgetOfLeadAudit(db: Db, audit: { id: string; prospectId: string | null }): Promise<WidgetCap | null> {
  if (!audit.prospectId) return null;
  const [row] = await db
    .select(capColumns)
    .from(widgetLeads)
    .innerJoin(widgets, eq(widgets.id, widgetLeads.widgetId))
    .where(and(eq(widgetLeads.prospectId, audit.prospectId), or(isNull(widgetLeads.auditId), eq(widgetLeads.auditId, audit.id))))
    .limit(1);
  return row ?? null;
}

/** The widget whose lead this report is, while the report has never been written (later regenerations are the agency's). */
export async function widgetOfLeadReport(db: Db, reportId: string): Promise<WidgetCap | null> {
  const [row] = await db
    .select(capColumns)
    .from(widgetLeads)
    .innerJoin(widgets, eq(widgets.id, widgetLeads.widgetId))
    .innerJoin(seoReports, eq(seoReports.id, widgetLeads.reportId))
    .where(and(eq(widgetLeads.reportId, reportId), isNull(seoReports.generatedAt)))
    .limit(1);
  return row ?? null;
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

/** The agency behind a widget: its owner's company name (null when the owner has not set one). */
export async function widgetAgencyName(db: Db, widgetId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: profiles.companyName })
    .from(widgets)
    .innerJoin(profiles, eq(profiles.id, widgets.ownerId))
    .where(eq(widgets.id, widgetId))
    .limit(1);
  return row?.name?.trim() || null;
}
