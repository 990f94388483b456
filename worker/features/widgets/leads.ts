// A widget lead's life (issue 21): the visitor's submission (bot check, limits, the owner's allowance) becomes a
// prospect, its report and its audit on the queues; a lead that finds the allowance spent waits and the cron starts it;
// the visitor's one mail goes out when the report is ready (the report-jobs consumer, and the cron as a net).
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import { readAllowance } from "../../platform/metering/budgets";
import { readCounter } from "../../platform/metering/store";
import { countEvent, retryAfterSeconds, uncountEvent, type Limit } from "../../platform/db/rate-limits";
import { createProspectWithReport, getReportWithProspect } from "../reports";
import { getAudit } from "../audits";
import {
  leadMailJob,
  waitingLeadJob,
  insertLead,
  leadsOfReport,
  leadsToSweep,
  releaseLeadMail,
  setLeadAudit,
  setLeadMailOutcome,
  widgetAgencyName,
  widgetsByIds,
  type LeadRow,
  type WidgetRow,
} from "./queries";
import { globalCapKey, meterSettings, toMicro } from "../../domain/metering";
import { deriveKeyword, normalizePhone, prospectSearchText, qualifyingQuestions, questionsToText } from "../prospects/rules/prospect";
import {
  leadMessage,
  LEAD_MIN_ALLOWANCE_USD,
  LEADS_PER_ADDRESS,
  LEADS_PER_WIDGET_DAY,
  LEADS_PER_WIDGET_HOUR,
  PROGRESS_LABELS,
  type LeadInput,
  type LeadMail,
  type LeadProgress,
  type LeadProgressStep,
  type LeadStatus,
  type WidgetRefusalKey,
} from "./rules/widgets";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { sendAppMail } from "../../platform/mail/send";
import { startAudit } from "../audits";
import { prospectSubject } from "../audits";
import { enqueueReport } from "../reports";
import { mailConfig } from "../../platform/providers/mail";
import { verifyTurnstile, turnstileConfigured } from "../../platform/providers/turnstile";
import { linkOrigin } from "../../platform/origin";
import { emitProspectEvent, emitProspectsCreated } from "../../platform/notifications/emit";
import { botCheckHosts, recipientHasMailLeft, returnRecipientMail, takeRecipientMail, widgetCapHasRoom } from "./guards";

export { linkOrigin };

export function sharedReportUrl(origin: string, reportId: string): string {
  return `${origin}/shared/reports/${reportId}`;
}

/** Whether the owner's allowance and the daily ceiling have room for a lead now (the meter's own counters). */
export async function allowanceHasRoom(env: Env, db: Db, ownerId: string, now = new Date()): Promise<boolean> {
  const settings = meterSettings(env);
  const [read, global] = await Promise.all([readAllowance(db, ownerId, settings, now), readCounter(db, globalCapKey(now))]);
  const need = toMicro(LEAD_MIN_ALLOWANCE_USD);
  if (global.reservedMicro + global.settledMicro + need > toMicro(settings.ceilingDailyUsd)) return false;
  const monthly = read.allowance.monthlyUsd;
  if (monthly === null) return true;
  // The counter the meter reserves against (this month's, reserved and settled).
  return read.reservedMicro + read.settledMicro + need <= toMicro(monthly);
}

export type Submitted = { ok: true; progress: LeadProgress } | { ok: false; refusal: WidgetRefusalKey; retryAfter?: number };

/**
 * The bot check, when Turnstile is configured (the routes serve no widget without it in production). A verified token
 * counts only when the challenge was solved on one of `hosts` (the widget's sites and the app's frame page): a token
 * solved on another site that uses the same site key is no proof for this widget.
 */
export async function checkBot(env: Env, token: string | undefined, ip: string | null, hosts: string[]): Promise<WidgetRefusalKey | null> {
  if (!turnstileConfigured(env)) return null;
  if (!token) return "botCheckFailed";
  const verified = await verifyTurnstile(env, token, ip);
  if (verified.ok) {
    if (verified.hostname && hosts.includes(verified.hostname)) return null;
    log.info("widget: bot check solved on another site", { hostname: verified.hostname });
    return "botCheckFailed";
  }
  log.info("widget: bot check refused", { reason: verified.reason });
  return verified.unavailable ? "botCheckUnavailable" : "botCheckFailed";
}

/** The three limits, each counted exactly in D1; a refused submission does not use up the widget's quota. */
export async function countLimits(db: Db, widgetId: string, address: string, nowMs = Date.now()): Promise<{ refusal: WidgetRefusalKey; limit: Limit } | null> {
  const perAddress: Limit = { key: `widget-ip:${address}`, ...LEADS_PER_ADDRESS };
  if ((await countEvent(db, perAddress, nowMs)) > perAddress.max) return { refusal: "addressLimit", limit: perAddress };
  const hour: Limit = { key: `widget-hour:${widgetId}`, ...LEADS_PER_WIDGET_HOUR };
  const day: Limit = { key: `widget-day:${widgetId}`, ...LEADS_PER_WIDGET_DAY };
  const [hourCount, dayCount] = await Promise.all([countEvent(db, hour, nowMs), countEvent(db, day, nowMs)]);
  if (dayCount > day.max) {
    await uncountEvent(db, hour);
    return { refusal: "widgetDayLimit", limit: day };
  }
  if (hourCount > hour.max) {
    await uncountEvent(db, day);
    return { refusal: "widgetHourLimit", limit: hour };
  }
  return null;
}

/** The lead's prospect, report (queued, or draft while it waits) and row; then its audit and report job when it may start. */
export async function createLead(env: Env, widget: WidgetRow, input: LeadInput, address: string): Promise<LeadRow> {
  const db = getDb(env);
  const room = await allowanceHasRoom(env, db, widget.ownerId);
  // The visitor's trade is the prospect's category (tag) and the keyword's trade; the business name is neither.
  const keyword = deriveKeyword(input.trade, input.location);
  const fields = {
    name: input.businessName,
    companyName: input.businessName,
    phone: normalizePhone(input.phone),
    email: input.email.toLowerCase(),
    description: "",
    area: input.location,
    keyword,
    tag: input.trade,
    website: input.website === "" ? null : input.website,
  };
  const created = await createProspectWithReport(db, {
    prospect: {
      ...fields,
      searchText: prospectSearchText({ ...fields, company_name: fields.companyName }),
    },
    questions: questionsToText(qualifyingQuestions(input.trade, input.location)),
    userId: widget.ownerId,
    queued: room,
  });
  const lead = await insertLead(db, {
    id: crypto.randomUUID(),
    widgetId: widget.id,
    prospectId: created.prospect.id,
    reportId: created.report.id,
    status: room ? "running" : "waiting_allowance",
    visitorEmail: fields.email,
    addressKey: address,
    queuedForAllowance: !room,
  });
  if (room) await startLeadWork(env, db, lead, widget.ownerId, false);
  else log.info("widget: lead waits for the allowance", { leadId: lead.id, widgetId: widget.id });
  // The agency hears of it at once (the bell, mail when on) and its webhooks get prospect.created and widget.lead.
  const at = new Date().toISOString();
  await Promise.all([
    emitProspectsCreated(env, [{ prospectId: lead.prospectId, reportId: lead.reportId, name: fields.name, area: fields.area, source: "widget" }]),
    emitProspectEvent(env, {
      prospectId: lead.prospectId,
      reportId: lead.reportId,
      alert: "widget_lead",
      webhook: "widget.lead",
      at,
      dedupeKey: `widget_lead:${lead.id}`,
      data: { name: fields.name, area: fields.area, email: fields.email, website: fields.website, phone: fields.phone || null, widget: widget.name, lead_id: lead.id, status: lead.status },
    }),
  ]);
  return lead;
}

/** Starts the lead's audit (paid by the widget's owner) and sends its report job. Never throws. */
async function startLeadWork(env: Env, db: Db, lead: LeadRow, ownerId: string, markQueued: boolean): Promise<void> {
  try {
    const found = await getReportWithProspect(db, lead.reportId);
    if (!found) return;
    const audit = await startAudit(env, { kind: "prospect", prospectId: lead.prospectId, userId: ownerId, subject: prospectSubject(found.prospect) });
    await setLeadAudit(db, lead.id, audit.id);
  } catch (error) {
    log.error("widget: the lead's audit could not start; the report goes on without it", { leadId: lead.id }, error);
  }
  if (markQueued) {
    await enqueueReport(env, lead.reportId);
    return;
  }
  try {
    await env.REPORT_JOBS.send({ reportId: lead.reportId });
  } catch (error) {
    // The report stays queued; the report sweep sends it later.
    log.error("widget: report-jobs send failed; the sweep sends it later", { leadId: lead.id }, error);
  }
}

/** What the widget shows while it polls: the audit's steps, the report's, the link once ready. */
export async function leadProgress(env: Env, lead: LeadRow, origin: string): Promise<LeadProgress> {
  const db = getDb(env);
  const [found, audit] = await Promise.all([getReportWithProspect(db, lead.reportId), lead.auditId ? getAudit(db, lead.auditId) : null]);
  const reportStatus = found?.report.status ?? "failed";
  const steps: LeadProgressStep[] = (["find", "fetch", "speed", "rank"] as const).map((id) => {
    const row = audit?.steps.find((s) => s.step === id);
    return { id, label: PROGRESS_LABELS[id]!, status: row?.status ?? "pending" };
  });
  const reportStep: LeadProgressStep["status"] =
    reportStatus === "ready" ? "done" : reportStatus === "generating" ? "running" : reportStatus === "failed" ? "failed" : "pending";
  steps.push({ id: "report", label: PROGRESS_LABELS.report!, status: reportStep });
  // While the lead runs, the first step not yet done shows as under way (the queue may not have claimed it yet).
  if (lead.status === "running" && reportStatus !== "ready" && !steps.some((s) => s.status === "running")) {
    const next = steps.find((s) => s.status === "pending");
    if (next) next.status = "running";
  }
  let status: LeadStatus = lead.status;
  let mailOutcome = lead.mailOutcome;
  if (reportStatus === "ready") {
    status = "ready";
    // The page may see the report ready before the consumer's mail: send it now (once, by the claim).
    if (!lead.mailedAt) {
      const mailed = await mailLead(env, db, lead).catch((error: unknown) => {
        log.error("widget: mail on poll failed", { leadId: lead.id }, error);
        return null;
      });
      if (mailed) mailOutcome = mailed;
    }
  }
  const mail = await leadMail(env, db, lead, mailOutcome);
  return {
    leadId: lead.id,
    status,
    message: leadMessage(status, mail),
    steps,
    reportStatus,
    reportUrl: reportStatus === "ready" ? sharedReportUrl(origin, lead.reportId) : null,
    mail,
  };
}

/** What the widget may say of the visitor's mail: only a mail a provider really sends counts (kept mail is not sent). */
async function leadMail(env: Env, db: Db, lead: LeadRow, outcome: LeadRow["mailOutcome"]): Promise<LeadMail> {
  if (!mailConfig(env) || !linkOrigin(env)) return "none";
  if (outcome === "sent") return "sent";
  if (outcome === "limited") return "none";
  return (await recipientHasMailLeft(db, lead.visitorEmail)) ? "will_send" : "none";
}

/**
 * The visitor's one mail with the shared link (claimed by compare-and-set: a second caller sends nothing), and at most
 * one such mail per address per day across every widget (a lead past it is ready without mail). Null: not claimed.
 */
async function mailLead(env: Env, db: Db, lead: LeadRow): Promise<"sent" | "limited" | null> {
  const origin = linkOrigin(env);
  if (!origin) {
    log.warn("widget: APP_ORIGIN not set, no mail", { leadId: lead.id });
    return null;
  }
  if ((await claim(db, leadMailJob, [lead.id])).length === 0) return null;
  if (!(await takeRecipientMail(db, lead.visitorEmail))) {
    await setLeadMailOutcome(db, lead.id, "limited");
    log.info("widget: the address had its mail today; not mailed", { leadId: lead.id });
    return "limited";
  }
  // The agency's name (its owner's profile), not the visitor-typed business name: the mail carries no visitor text.
  const agency = await widgetAgencyName(db, lead.widgetId);
  try {
    await sendAppMail(env, db, "widget_report_ready", { to: lead.visitorEmail, link: sharedReportUrl(origin, lead.reportId), detail: agency ?? undefined }, { readable: false });
  } catch (error) {
    await releaseLeadMail(db, lead.id);
    await returnRecipientMail(db, lead.visitorEmail);
    throw error;
  }
  await setLeadMailOutcome(db, lead.id, "sent");
  log.info("widget: report mailed", { leadId: lead.id });
  return "sent";
}

/** Seconds to the next UTC midnight, when the widget's daily cap starts again. */
function retryAfterMidnight(now = Date.now()): number {
  return Math.max(1, Math.ceil((86_400_000 - (now % 86_400_000)) / 1000));
}

/**
 * A visitor's submission (its origin checked, its form parsed): the bot check, the widget's daily spending cap before
 * anything is stored or paid (the meter holds it exactly for every call), the limits, then the lead. The answer is
 * the lead's first progress: the widget shows its steps at once.
 */
export async function submitLead(env: Env, widget: WidgetRow, input: LeadInput, visitor: { ip: string | null; address: string; origin: string }): Promise<Submitted> {
  const bot = await checkBot(env, input.turnstileToken, visitor.ip, botCheckHosts(widget, visitor.origin));
  if (bot) return { ok: false, refusal: bot };
  const db = getDb(env);
  if (!(await widgetCapHasRoom(db, widget))) return { ok: false, refusal: "spendCapReached", retryAfter: retryAfterMidnight() };
  const over = await countLimits(db, widget.id, visitor.address);
  if (over) return { ok: false, refusal: over.refusal, retryAfter: retryAfterSeconds(over.limit) };
  let lead: LeadRow;
  try {
    lead = await createLead(env, widget, input, visitor.address);
  } catch (error) {
    log.error("widget: lead could not be stored", { widgetId: widget.id }, error);
    return { ok: false, refusal: "leadNotStored" };
  }
  return { ok: true, progress: await leadProgress(env, lead, visitor.origin) };
}

/** The report-jobs consumer calls this when a report becomes ready: its widget lead (if any) is mailed. */
export async function mailLeadsOfReport(env: Env, reportId: string): Promise<number> {
  const db = getDb(env);
  let sent = 0;
  for (const lead of await leadsOfReport(db, reportId)) {
    if (!lead.mailedAt && (await mailLead(env, db, lead)) === "sent") sent++;
  }
  return sent;
}

/** The cron: waiting leads start once their owner's allowance has room; ready reports whose mail was missed are mailed. */
export async function sweepWidgetLeads(env: Env, now = new Date()): Promise<{ started: number; mailed: number }> {
  const db = getDb(env);
  const { waiting, unmailed } = await leadsToSweep(db);
  const widgetRows = new Map((await widgetsByIds(db, [...new Set(waiting.map((l) => l.widgetId))])).map((w) => [w.id, w]));
  const room = new Map<string, boolean>();
  let started = 0;
  for (const lead of waiting) {
    const widget = widgetRows.get(lead.widgetId);
    if (!widget) continue;
    const ownerId = widget.ownerId;
    if (!room.has(ownerId)) room.set(ownerId, await allowanceHasRoom(env, db, ownerId, now));
    if (!room.get(ownerId)) continue;
    // The widget's own daily cap too: a waiting lead starts on a day its widget has room.
    if (!(await widgetCapHasRoom(db, widget, now))) continue;
    if ((await claim(db, waitingLeadJob, [lead.id])).length === 0) continue;
    await startLeadWork(env, db, lead, ownerId, true);
    // One lead's audit and report reserve from the allowance: the next waits for a fresh look.
    room.delete(ownerId);
    started++;
  }
  let mailed = 0;
  for (const lead of unmailed) {
    try {
      if ((await mailLead(env, db, lead)) === "sent") mailed++;
    } catch (error) {
      log.error("widget: sweep mail failed", { leadId: lead.id }, error);
    }
  }
  if (started || mailed) log.info("widget sweep", { started, mailed });
  return { started, mailed };
}
