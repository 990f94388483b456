// The meter's pure rules: what a paid call is estimated to cost, what it really cost, which caps it is counted
// against (their keys, periods and limits) and the monthly allowance a plan carries. Money is kept in millionths
// of a dollar (integers), so the store adds and compares exactly.
import { costFor, estimateTokens } from "./usage-cost";
import { smsUsdPerSegment, type SmsCountry } from "./sms-pricing";
import { AI_ENGINE_USD_PER_CALL, type AiEngine } from "./ai-engines";

export const MICRO_USD = 1_000_000;

/** Text to speech: dollars per 1,000 characters (ElevenLabs' Creator tier, the most a character costs us). */
export const TTS_USD_PER_1K_CHARS = 0.3;
/** Web search: dollars per live call (SerpAPI's Developer plan, $75 for 5,000 searches). */
export const SEARCH_USD_PER_CALL = 0.015;
/** PageSpeed Insights: free (Google's quota is the limit), metered so the audit's every outside call is counted and capped alike. */
export const PAGESPEED_USD_PER_CALL = 0;

/** A review request's mail: no per-message price, metered so every message is counted and capped alike. */
export const REVIEW_MAIL_USD = 0;

/** Anonymous callers (public chat and its voice): dollars per client address per hour (IPv6 per /64). */
export const ANONYMOUS_ADDRESS_HOURLY_USD = 0.25;
/** Public chat and its voice together: dollars per shared report per UTC day. */
export const REPORT_DAILY_USD = 0.5;
/** Defaults of the operator's settings (SPEND_CEILING_DAILY_USD, PLAN_ALLOWANCE_*_USD). */
export const DEFAULT_SPEND_CEILING_DAILY_USD = 25;
export const DEFAULT_PLAN_ALLOWANCE_FREE_USD = 1;
export const DEFAULT_PLAN_ALLOWANCE_SELF_SERVICE_USD = 30;
/** SPEND_CEILING_FREE_SHARE: the share of the daily ceiling Free accounts may use between them (issue 39). */
export const DEFAULT_SPEND_CEILING_FREE_SHARE = 0.2;

/** A reservation not settled or released within this long is given back by the cron sweep (a worker that died mid-call). */
export const RESERVATION_TTL_MS = 15 * 60_000;

/** What a paid call is, with what its estimate needs. */
export type PaidCall =
  | { kind: "ai"; model: string; prompt: string; maxTokens: number }
  | { kind: "tts"; characters: number }
  | { kind: "search" }
  | { kind: "pagespeed" }
  /** A text: its segments at the destination country's price (issue 39: not the US price for every number). */
  | { kind: "sms"; segments: number; country: SmsCountry }
  | { kind: "mail" }
  /** One AI Visibility question asked of one engine (issue 29): a flat price per call. */
  | { kind: "ai_engine"; engine: AiEngine };

/** What it really used, reported by the provider. */
export type CallUsage =
  | { kind: "ai"; model: string; inputTokens: number; outputTokens: number }
  | { kind: "tts"; characters: number }
  | { kind: "search"; calls: number }
  | { kind: "pagespeed"; calls: number }
  | { kind: "sms"; segments: number; country: SmsCountry }
  | { kind: "mail"; messages: number }
  | { kind: "ai_engine"; engine: AiEngine; calls: number };

export function toMicro(usd: number): number {
  return Math.ceil(Number((usd * MICRO_USD).toPrecision(12)));
}

export function fromMicro(micro: number): number {
  return micro / MICRO_USD;
}

/** The reservation: the most the call can cost (AI: the prompt's tokens in, the whole max_tokens out). */
export function estimateMicro(call: PaidCall): number {
  switch (call.kind) {
    case "ai":
      return toMicro(costFor(call.model, estimateTokens(call.prompt), call.maxTokens));
    case "tts":
      return toMicro((call.characters / 1000) * TTS_USD_PER_1K_CHARS);
    case "search":
      return toMicro(SEARCH_USD_PER_CALL);
    case "pagespeed":
      return toMicro(PAGESPEED_USD_PER_CALL);
    case "sms":
      return toMicro(call.segments * smsUsdPerSegment(call.country));
    case "mail":
      return toMicro(REVIEW_MAIL_USD);
    case "ai_engine":
      return toMicro(AI_ENGINE_USD_PER_CALL[call.engine]);
  }
}

/** The settled figure: tokens at the model's price, characters, calls. */
export function actualMicro(usage: CallUsage): number {
  switch (usage.kind) {
    case "ai":
      return toMicro(costFor(usage.model, usage.inputTokens, usage.outputTokens));
    case "tts":
      return toMicro((usage.characters / 1000) * TTS_USD_PER_1K_CHARS);
    case "search":
      return toMicro(usage.calls * SEARCH_USD_PER_CALL);
    case "pagespeed":
      return toMicro(usage.calls * PAGESPEED_USD_PER_CALL);
    case "sms":
      return toMicro(usage.segments * smsUsdPerSegment(usage.country));
    case "mail":
      return toMicro(usage.messages * REVIEW_MAIL_USD);
    case "ai_engine":
      return toMicro(usage.calls * AI_ENGINE_USD_PER_CALL[usage.engine]);
  }
}

/** Dollars of an actual usage (for usage logs of non-token calls). */
export function usageCostUsd(usage: CallUsage): number {
  return fromMicro(actualMicro(usage));
}

export type CapScope = "user" | "widget" | "report" | "address" | "free" | "global";

/** One cap a reservation is counted against: its counter key (the period is in the key) and limit. */
export type Cap = {
  scope: CapScope;
  key: string;
  limitMicro: number;
  /** When the counter's period is over: the row may be deleted after it. */
  expiresAt: string;
};

/**
 * Which part of the day's ceiling a signed-in payer draws from (issue 39): `agency` (an admin: prospect work, widget
 * leads, the agency's own), `paying` (a subscription in force, or a budget an admin set), `free` (every other account:
 * the Free pool, a share of the ceiling, so Free sign-ups can never use up what the others need).
 */
export type PayerPool = "agency" | "paying" | "free";

/** Who pays: a signed-in user (admins included, for their prospect work), or an anonymous visitor of a shared report. */
export type Payer =
  /**
   * `emailConfirmed`: the account's address is confirmed by its emailed link (customers spend only then; issue 39).
   * `widget`: a free-audit widget lead's work, counted against that widget's daily cap too (issue 26).
   */
  | { kind: "user"; userId: string; allowanceUsd: number | null; pool: PayerPool; emailConfirmed: boolean; widget?: { id: string; dailyCapUsd: number } }
  | { kind: "visitor"; reportId: string; address: string };

/** The agency's own work with no account behind it (a prospect report made by an admin since removed). */
export function agencyPayer(userId: string): Payer {
  return { kind: "user", userId, allowanceUsd: null, pool: "agency", emailConfirmed: true };
}

/** The pool an account draws from: admins the agency's, a subscription or an admin-set budget paying, the rest Free. */
export function poolFor(input: { isAdmin: boolean; subscriptionActive: boolean; overrideUsd: number | null }): PayerPool {
  if (input.isAdmin) return "agency";
  return input.subscriptionActive || input.overrideUsd !== null ? "paying" : "free";
}

/**
 * Paid features need a confirmed address (issue 39): a customer's account (Free or paying) spends nothing until its
 * emailed link is opened. The agency's work (admins, whose rights an admin or a confirmed ADMIN_EMAILS link gave) does not wait.
 */
export function mustConfirmEmail(payer: Payer): boolean {
  return payer.kind === "user" && accountMustConfirm({ isAdmin: payer.pool === "agency", emailConfirmed: payer.emailConfirmed });
}

/** `mustConfirmEmail` for a signed-in account as the routes read it (the guard in front of every paid route). */
export function accountMustConfirm(account: { isAdmin: boolean; emailConfirmed: boolean }): boolean {
  return !account.isAdmin && !account.emailConfirmed;
}

export type MeterSettings = { ceilingDailyUsd: number; allowanceFreeUsd: number; allowanceSelfServiceUsd: number; freeShare: number };

function positiveNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** The operator's settings from the environment, with the defaults. */
export function meterSettings(vars: {
  SPEND_CEILING_DAILY_USD?: string;
  PLAN_ALLOWANCE_FREE_USD?: string;
  PLAN_ALLOWANCE_SELF_SERVICE_USD?: string;
  SPEND_CEILING_FREE_SHARE?: string;
}): MeterSettings {
  return {
    freeShare: Math.min(1, positiveNumber(vars.SPEND_CEILING_FREE_SHARE, DEFAULT_SPEND_CEILING_FREE_SHARE)),
    ceilingDailyUsd: positiveNumber(vars.SPEND_CEILING_DAILY_USD, DEFAULT_SPEND_CEILING_DAILY_USD),
    allowanceFreeUsd: positiveNumber(vars.PLAN_ALLOWANCE_FREE_USD, DEFAULT_PLAN_ALLOWANCE_FREE_USD),
    allowanceSelfServiceUsd: positiveNumber(vars.PLAN_ALLOWANCE_SELF_SERVICE_USD, DEFAULT_PLAN_ALLOWANCE_SELF_SERVICE_USD),
  };
}

export type PlanName = "Free" | "Self Service";

export type Allowance = {
  plan: PlanName;
  /** Dollars per calendar month (UTC); null: no monthly cap (an admin without an override). */
  monthlyUsd: number | null;
  /** "override": an admin set this user's budget; "plan": the plan's allowance; "admin": admins are bounded by the ceiling only. */
  source: "override" | "plan" | "admin";
};

/**
 * The monthly allowance: an admin's override when one is set, else the plan's (Self Service while the
 * subscription is active or trialing, else Free). Admins without an override are not capped per month (their
 * prospect work is the agency's own), only by the daily ceiling.
 */
export function allowanceFor(input: { subscriptionActive: boolean; overrideUsd: number | null; isAdmin: boolean }, settings: MeterSettings): Allowance {
  const plan: PlanName = input.subscriptionActive ? "Self Service" : "Free";
  if (input.overrideUsd !== null) return { plan, monthlyUsd: input.overrideUsd, source: "override" };
  if (input.isAdmin) return { plan, monthlyUsd: null, source: "admin" };
  return { plan, monthlyUsd: plan === "Self Service" ? settings.allowanceSelfServiceUsd : settings.allowanceFreeUsd, source: "plan" };
}

/** Periods, UTC. */
export function monthPeriod(now: Date): { id: string; end: Date } {
  return { id: now.toISOString().slice(0, 7), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}
export function dayPeriod(now: Date): { id: string; end: Date } {
  return { id: now.toISOString().slice(0, 10), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)) };
}
export function hourPeriod(now: Date): { id: string; end: Date } {
  const start = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return { id: new Date(start).toISOString().slice(0, 13), end: new Date(start + 3_600_000) };
}

export function userCapKey(userId: string, now: Date): string {
  return `user:${userId}:${monthPeriod(now).id}`;
}
export function reportCapKey(reportId: string, now: Date): string {
  return `report:${reportId}:${dayPeriod(now).id}`;
}
export function widgetCapKey(widgetId: string, now: Date): string {
  return `widget:${widgetId}:${dayPeriod(now).id}`;
}
export function globalCapKey(now: Date): string {
  return `global:${dayPeriod(now).id}`;
}
/** The Free pool's counter: every Free account's spending of the day, together. */
export function freePoolCapKey(now: Date): string {
  return `free:${dayPeriod(now).id}`;
}

/** A limit no counter reaches (a billion dollars), for a counter that is kept but not capped. */
export const UNLIMITED_MICRO = 1e15;

/** The caps a call by this payer is counted against, in the order they are checked. */
export function capsFor(payer: Payer, settings: MeterSettings, now: Date): Cap[] {
  const caps: Cap[] = [];
  if (payer.kind === "user") {
    // Without an allowance the counter still runs (usage screens read it), with no limit of its own.
    const limitMicro = payer.allowanceUsd === null ? UNLIMITED_MICRO : toMicro(payer.allowanceUsd);
    caps.push({ scope: "user", key: userCapKey(payer.userId, now), limitMicro, expiresAt: monthPeriod(now).end.toISOString() });
    if (payer.widget) {
      const day = dayPeriod(now);
      caps.push({ scope: "widget", key: widgetCapKey(payer.widget.id, now), limitMicro: toMicro(payer.widget.dailyCapUsd), expiresAt: day.end.toISOString() });
    }
  } else {
    caps.push({ scope: "report", key: reportCapKey(payer.reportId, now), limitMicro: toMicro(REPORT_DAILY_USD), expiresAt: dayPeriod(now).end.toISOString() });
    const hour = hourPeriod(now);
    caps.push({ scope: "address", key: `address:${payer.address}:${hour.id}`, limitMicro: toMicro(ANONYMOUS_ADDRESS_HOURLY_USD), expiresAt: hour.end.toISOString() });
  }
  caps.push({ scope: "global", key: globalCapKey(now), limitMicro: toMicro(settings.ceilingDailyUsd), expiresAt: dayPeriod(now).end.toISOString() });
  // After the ceiling: a day past the ceiling says so, whoever asks; the Free pool refuses only what is left of it.
  if (payer.kind === "user" && payer.pool === "free") {
    caps.push({ scope: "free", key: freePoolCapKey(now), limitMicro: freePoolLimitMicro(settings), expiresAt: dayPeriod(now).end.toISOString() });
  }
  return caps;
}

/** What the Free pool may spend a day: its share of the ceiling. */
export function freePoolLimitMicro(settings: MeterSettings): number {
  return Math.floor(toMicro(settings.ceilingDailyUsd) * settings.freeShare);
}

/** The first cap (in check order) this much more would take past its limit, given each counter's total now. */
export function capRefusing(caps: Cap[], totals: Map<string, number>, amountMicro: number): Cap | null {
  return caps.find((cap) => (totals.get(cap.key) ?? 0) + amountMicro > cap.limitMicro) ?? null;
}

/** Why AI features answer from their fallback once the operator's daily ceiling is reached. */
export const SPEND_CEILING_MESSAGE =
  "This service has reached its AI spending limit for today, so AI features use their fallback until midnight UTC.";
/** A widget lead's paid call past its widget's daily cap: the audit step or report goes on without it. */
export const WIDGET_CAP_MESSAGE = "This widget has reached its daily spending cap, so this step was not run; it resets at midnight UTC.";
/** An anonymous caller's address used up its hourly share. */
export const ADDRESS_CAP_MESSAGE = "Too many AI requests from your network this hour, so replies come from the local fallback system.";
/** Free accounts used the Free pool's share of the day (issue 39): paying customers and the agency are not affected. */
export const FREE_POOL_MESSAGE =
  "Free accounts have used today's share of AI features, so they use their fallback until midnight UTC. A subscription keeps them going.";
/** A customer whose address is not confirmed yet (issue 39): what every paid feature answers, and the screens show. */
export const EMAIL_UNCONFIRMED_MESSAGE = "Confirm your email address to use this feature: open the link we emailed you, or send the link again.";
