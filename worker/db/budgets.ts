// Monthly AI budgets (admin-set, per user) and the one check every AI feature calls before spending.
import { budgetExceededMessage, budgetState, monthWindow, type BudgetState } from "../domain/usage-stats";
import { ErrorCode, HttpError } from "../errors";
import { monthSpendStatement } from "./usage-stats";

/** A user's budget row (dollars per month), or null when none is set. */
export async function getMonthlyBudget(d1: D1Database, userId: string): Promise<number | null> {
  const row = await d1.prepare("SELECT monthly_usd FROM ai_budgets WHERE user_id = ?").bind(userId).first<{ monthly_usd: number }>();
  return row ? row.monthly_usd : null;
}

/** Sets (or with null removes) a user's monthly budget. */
export async function setMonthlyBudget(d1: D1Database, userId: string, monthlyUsd: number | null, adminId: string): Promise<void> {
  if (monthlyUsd === null) {
    await d1.prepare("DELETE FROM ai_budgets WHERE user_id = ?").bind(userId).run();
    return;
  }
  await d1
    .prepare(
      `INSERT INTO ai_budgets (user_id, monthly_usd, updated_by, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(user_id) DO UPDATE SET monthly_usd = excluded.monthly_usd, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .bind(userId, monthlyUsd, adminId, new Date().toISOString())
    .run();
}

/** The budget and this calendar month's spend (UTC), read in one round trip from the daily usage roll-up. */
export async function getBudgetState(d1: D1Database, userId: string, now = new Date()): Promise<BudgetState> {
  const { start, end } = monthWindow(now);
  const [budget, spend] = await d1.batch<{ monthly_usd?: number; spent?: number }>([
    d1.prepare("SELECT monthly_usd FROM ai_budgets WHERE user_id = ?").bind(userId),
    monthSpendStatement(d1, userId, start, end),
  ]);
  const monthly = budget?.results[0]?.monthly_usd ?? null;
  return budgetState(monthly, spend?.results[0]?.spent ?? 0, now);
}

/** True when the user has a budget and this month's AI spend has reached it. */
export async function isOverBudget(d1: D1Database, userId: string, now = new Date()): Promise<boolean> {
  return (await getBudgetState(d1, userId, now)).over;
}

/**
 * Throws HttpError 402 `ai_budget_exceeded` (rendered by app.onError as `{error:{code,message}}`) when the
 * user's monthly AI budget is used up; returns the budget state otherwise. Call before any AI request.
 */
export async function assertWithinBudget(d1: D1Database, userId: string, now = new Date()): Promise<BudgetState> {
  const state = await getBudgetState(d1, userId, now);
  if (state.over) throw new HttpError(402, ErrorCode.budgetExceeded, budgetExceededMessage(state));
  return state;
}
