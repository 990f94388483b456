// What keeps a public widget from spending the agency's money for anyone (issue 26): the bot check required in
// production (and its answer's hostname one of the widget's sites), the widget's own daily spending cap on the meter,
// and the visitor mail limit per recipient address per day.
import type { Db } from "../../platform/db/client";
import { readCounter } from "../../platform/metering/store";
import { countEvent, currentCount, uncountEvent, type Limit } from "../../platform/db/rate-limits";
import { originsOf, widgetOfLeadAudit, widgetOfLeadReport, type WidgetCap, type WidgetRow } from "./queries";
import { toMicro, widgetCapKey, type Payer } from "../../domain/metering";
import { LEAD_MIN_ALLOWANCE_USD, WIDGET_MAILS_PER_RECIPIENT_DAY, type WidgetProtection } from "./rules/widgets";
import type { Env } from "../../platform/env";
import { mailConfig } from "../../platform/providers/mail";
import { turnstileConfigured } from "../../platform/providers/turnstile";

/** Production is every ENVIRONMENT but development (as REQUIRE_ADMIN_MFA reads it). */
function isProduction(env: Env): boolean {
  return env.ENVIRONMENT !== "development";
}

export function botCheckState(env: Env): WidgetProtection["botCheck"] {
  if (turnstileConfigured(env)) return "on";
  return isProduction(env) ? "missing" : "off";
}

export function widgetProtection(env: Env): WidgetProtection {
  return { botCheck: botCheckState(env), mailConfigured: mailConfig(env) !== null, mailsPerRecipientPerDay: WIDGET_MAILS_PER_RECIPIENT_DAY };
}

/** Whether the widget's script, frame and API take visitors: active, and in production only behind the bot check. */
export function widgetServed(env: Env, row: WidgetRow): boolean {
  return row.active && botCheckState(env) !== "missing";
}

/** The hostnames a verified challenge may come from: the widget's sites, and the app's own (the frame page). */
export function botCheckHosts(row: WidgetRow, appOrigin: string): string[] {
  return [...originsOf(row), appOrigin].map((o) => new URL(o).hostname.toLowerCase());
}

// ---- The daily spending cap

const capOf = (w: WidgetCap) => ({ id: w.id, dailyCapUsd: w.dailyCapCents / 100 });

/** Whether the widget's cap has room today for one more lead's work (what a lead needs to start). */
export async function widgetCapHasRoom(db: Db, widget: WidgetCap, now = new Date()): Promise<boolean> {
  const counter = await readCounter(db, widgetCapKey(widget.id, now));
  return counter.reservedMicro + counter.settledMicro + toMicro(LEAD_MIN_ALLOWANCE_USD) <= toMicro(capOf(widget).dailyCapUsd);
}

/** The audit's payer, with its widget's cap when the audit is a widget lead's. */
export async function auditPayer(db: Db, payer: Payer, audit: { id: string; prospectId: string | null }): Promise<Payer> {
  if (payer.kind !== "user") return payer;
  const widget = await widgetOfLeadAudit(db, audit);
  return widget ? { ...payer, widget: capOf(widget) } : payer;
}

/**
 * The report's payer, with its widget's cap while the report is a widget lead's first. The widget is read beside the
 * payer's own allowance (one round trip for both on the report job's hot path).
 */
export async function reportPayer(db: Db, payer: Payer | Promise<Payer>, reportId: string): Promise<Payer> {
  const [base, widget] = await Promise.all([payer, widgetOfLeadReport(db, reportId)]);
  if (base.kind !== "user") return base;
  return widget ? { ...base, widget: capOf(widget) } : base;
}

// ---- One mail per recipient address per day, across every widget

async function recipientKey(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  // Hashed: the limits table keeps no addresses.
  return `widget-mail:${hex}`;
}

async function recipientLimit(email: string): Promise<Limit> {
  return { key: await recipientKey(email), max: WIDGET_MAILS_PER_RECIPIENT_DAY, windowSeconds: 86_400 };
}

/** Takes one of the address's mails for today; false (nothing taken) when it had them already. Exact: one D1 upsert. */
export async function takeRecipientMail(db: Db, email: string): Promise<boolean> {
  const limit = await recipientLimit(email);
  if ((await countEvent(db, limit)) <= limit.max) return true;
  await uncountEvent(db, limit);
  return false;
}

/** Gives the mail back (it could not be stored). */
export async function returnRecipientMail(db: Db, email: string): Promise<void> {
  await uncountEvent(db, await recipientLimit(email));
}

/** Whether the address has a mail left today (what the widget may promise; the send takes it). */
export async function recipientHasMailLeft(db: Db, email: string): Promise<boolean> {
  const limit = await recipientLimit(email);
  return (await currentCount(db, limit)) < limit.max;
}
