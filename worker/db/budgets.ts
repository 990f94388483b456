// Monthly AI budgets (admin-set, per user) and the one check every AI feature calls before spending.
import { eq } from "drizzle-orm";
import { budgetExceededMessage, budgetState, monthWindow, type BudgetState } from "../domain/usage-stats";
import { ErrorCode, HttpError } from "../errors";
import type { Db } from "./client";
import { aiBudgets } from "./schema";
import { monthSpendQuery } from "./usage-stats";

/** The select of a user's budget row (dollars per month). */
export function budgetQuery(db: Db, userId: string) {
  return db.select({ monthlyUsd: aiBudgets.monthlyUsd }).from(aiBudgets).where(eq(aiBudgets.userId, userId));
}

/** A user's budget row (dollars per month), or null when none is set. */
export async function getMonthlyBudget(db: Db, userId: string): Promise<number | null> {
  const [row] = await budgetQuery(db, userId);
  return row ? row.monthlyUsd : null;
}

/** Sets (or with null removes) a user's monthly budget. */
export async function setMonthlyBudget(db: Db, userId: string, monthlyUsd: number | null, adminId: string): Promise<void> {
  if (monthlyUsd === null) {
    await db.delete(aiBudgets).where(eq(aiBudgets.userId, userId));
    return;
  }
  const set = { monthlyUsd, updatedBy: adminId, updatedAt: new Date().toISOString() };
  await db
    .insert(aiBudgets)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: aiBudgets.userId, set });
}

/** The budget and this calendar month's spend (UTC), read in one round trip from the daily usage roll-up. */
export async function getBudgetState(db: Db, userId: string, now = new Date()): Promise<BudgetState> {
  const { start, end } = monthWindow(now);
  const [[budget], [spend]] = await db.batch([budgetQuery(db, userId), monthSpendQuery(db, userId, start, end)]);
  return budgetState(budget?.monthlyUsd ?? null, spend?.spent ?? 0, now);
}

/** True when the user has a budget and this month's AI spend has reached it. */
export async function isOverBudget(db: Db, userId: string, now = new Date()): Promise<boolean> {
  return (await getBudgetState(db, userId, now)).over;
}

/**
 * Throws HttpError 402 `ai_budget_exceeded` (rendered by app.onError as `{error:{code,message}}`) when the
 * user's monthly AI budget is used up; returns the budget state otherwise. Call before any AI request.
 */
export async function assertWithinBudget(db: Db, userId: string, now = new Date()): Promise<BudgetState> {
  const state = await getBudgetState(db, userId, now);
  if (state.over) throw new HttpError(402, ErrorCode.budgetExceeded, budgetExceededMessage(state));
  return state;
}
