// The monthly allowance as the meter enforces it (worker/platform/metering/meter.ts, budgets.ts) and the usage screens
// show it (worker/features/usage/rules/usage-stats.ts re-exports it): the month counted, what is left, and what an AI
// feature answers once it is used up. Pure: shared by the worker and the web.
import type { Allowance, PlanName } from "../../../domain/metering";
import { formatCost, roundCost } from "../../../domain/usage-cost";

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
