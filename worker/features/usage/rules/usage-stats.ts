// AI usage statistics (spec part 2 §2, §3, §9) and monthly budgets: response shapes and the pure rules around them.
import { z } from "zod";
import type { Allowance, PlanName } from "../../../domain/metering";
import { formatCost, roundCost } from "../../../domain/usage-cost";

/** Spec §9: the panel's Recent Activity shows the latest 10 calls. */
export const RECENT_LOGS = 10;
/** The chart covers the last 30 days, today included. */
export const CHART_DAYS = 30;

export const USAGE_FOOTNOTE = "Token usage and costs are estimates and may vary based on the actual API usage.";
export const USAGE_EMPTY = "No AI usage yet";
export const USAGE_LOADING = "Loading your AI usage statistics...";
export const USAGE_LOAD_FAILED = "Failed to load your AI usage statistics";

/**
 * The usage screens' names of the metered calls made outside an AI completion, by the feature that made them: each
 * appears in Usage by Tool beside the AI tools, so the breakdown adds up to what the allowance counts.
 */
export const METERED_TOOL_NAMES = {
  gridSearch: "Local Search Grid",
  rankCheck: "Local Rank Tracker",
  listingLookup: "Business listing lookup",
  auditMaps: "Audit: Google Maps lookup",
  auditSpeed: "Audit: page speed test",
  auditRank: "Audit: Google ranking lookup",
} as const;

export type ToolUsage = { tool_name: string; count: number; tokens: number; cost: number };
export type RecentLog = {
  id: string;
  created_at: string;
  tool_name: string;
  model: string;
  total_tokens: number;
  estimated_cost: number;
  /** True when the tokens are the length / 4 estimate (the provider sent none). */
  tokens_estimated: boolean;
};
export type DailyUsage = { day: string; tokens: number; cost: number; count: number };

export type BudgetState = {
  /** The monthly allowance in force, dollars per calendar month (UTC); null: no monthly cap (an admin without an override). */
  monthly_usd: number | null;
  /** The plan the subscription state decides. */
  plan: PlanName;
  /** The plan's own allowance (null for an admin without an override), and the admin-set override (null: none). */
  plan_usd: number | null;
  override_usd: number | null;
  /** Settled spend this month (every paid call: AI, voice, search). */
  spent_usd: number;
  /** Reserved by calls still running: counted against the allowance already. */
  reserved_usd: number;
  /** spent + reserved: what the cap enforces. */
  used_usd: number;
  /** What is left of the allowance; null without one. */
  left_usd: number | null;
  /** First day of the month the spend is counted over, YYYY-MM-DD. */
  month_start: string;
  /** When the spend starts again from zero (first day of next month, UTC): the renewal day. */
  resets_at: string;
  over: boolean;
};

/** Spec §3 "Usage stats", plus the 30-day chart and the budget. */
export type UsageStats = {
  totalUsage: number;
  totalTokens: number;
  totalCost: number;
  usageByTool: ToolUsage[];
  recentLogs: RecentLog[];
  daily: DailyUsage[];
  budget: BudgetState;
};

export type UserUsage = {
  user_id: string | null;
  email: string | null;
  company_name: string | null;
  /** The user's monthly budget in dollars, null when none is set. */
  monthly_usd: number | null;
  count: number;
  tokens: number;
  cost: number;
};
export type ModelUsage = { model: string; count: number; tokens: number; cost: number };

/** Admins: every user's usage over the chosen window. */
export type AllUsage = {
  days: number;
  totalUsage: number;
  totalTokens: number;
  totalCost: number;
  byUser: UserUsage[];
  byTool: ToolUsage[];
  byModel: ModelUsage[];
  byDay: DailyUsage[];
};

export type UsageResponse = { stats: UsageStats; all: AllUsage | null };

export const UsageQuery = z.object({
  /** "all": admins get every user's usage too. */
  scope: z.enum(["me", "all"]).default("me"),
  days: z.coerce.number().int().min(1).max(366).default(CHART_DAYS),
});

export const BudgetUpdate = z.object({
  /** Dollars per month; null removes the budget. */
  monthly_usd: z
    .number({ message: "Enter the budget in dollars" })
    .min(0, { message: "The budget cannot be negative" })
    .max(1_000_000, { message: "The budget is too large" })
    .nullable(),
});
export type BudgetResponse = { user_id: string; budget: BudgetState };

/** YYYY-MM-DD of a date, UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The calendar month (UTC) a moment falls in: its first instant and the next month's. */
export function monthWindow(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
}

export function budgetState(
  input: { allowance: Allowance; planUsd: number | null; overrideUsd: number | null; spentUsd: number; reservedUsd: number },
  now: Date,
): BudgetState {
  const { start, end } = monthWindow(now);
  const spent = roundCost(input.spentUsd);
  const reserved = roundCost(input.reservedUsd);
  const used = roundCost(spent + reserved);
  const monthly = input.allowance.monthlyUsd;
  return {
    monthly_usd: monthly,
    plan: input.allowance.plan,
    plan_usd: input.planUsd,
    override_usd: input.overrideUsd,
    spent_usd: spent,
    reserved_usd: reserved,
    used_usd: used,
    left_usd: monthly === null ? null : roundCost(Math.max(0, monthly - used)),
    month_start: start.slice(0, 10),
    resets_at: end,
    // Reaching the allowance exactly counts as used up: the next call would go past it.
    over: monthly !== null && used >= monthly,
  };
}


/** What an AI feature answers once the monthly budget is used up. */
export function budgetExceededMessage(budget: Pick<BudgetState, "monthly_usd" | "resets_at">): string {
  const resets = new Date(budget.resets_at).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });
  return `You have used your monthly AI budget of ${formatCost(budget.monthly_usd ?? 0)}. AI features are paused until ${resets} or until an administrator raises your budget.`;
}

/** The first day of the chart window, for a 30-day chart ending today. */
export function chartStart(now: Date, days = CHART_DAYS): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/** One entry per day of the window, oldest first; days without calls are zero. */
export function fillDays(rows: DailyUsage[], now: Date, days = CHART_DAYS): DailyUsage[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const start = chartStart(now, days);
  return Array.from({ length: days }, (_, i) => {
    const day = utcDay(new Date(start.getTime() + i * 86_400_000));
    const row = byDay.get(day);
    return { day, tokens: row?.tokens ?? 0, cost: roundCost(row?.cost ?? 0), count: row?.count ?? 0 };
  });
}
