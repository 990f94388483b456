// AI usage statistics (spec part 2 §2, §3, §9) and monthly budgets: response shapes and the pure rules around them.
import { z } from "zod";
import { roundCost } from "../../../domain/usage-cost";
import type { BudgetState } from "../../../platform/metering/rules/budget";

export { budgetExceededMessage, budgetState, monthWindow, type BudgetState } from "../../../platform/metering/rules/budget";

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

/** What a group of calls adds up to (by tool, user, model or day). */
type UsageSums = { count: number; tokens: number; cost: number };
/** What every call of the window adds up to. */
type UsageTotals = { totalUsage: number; totalTokens: number; totalCost: number };

export type ToolUsage = { tool_name: string } & UsageSums;
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
export type DailyUsage = { day: string } & UsageSums;

/** Spec §3 "Usage stats", plus the 30-day chart and the budget. */
export type UsageStats = UsageTotals & {
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
} & UsageSums;
export type ModelUsage = { model: string } & UsageSums;

/** Admins: every user's usage over the chosen window. */
export type AllUsage = UsageTotals & {
  days: number;
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
