// Aggregates for GET /api/usage, all in SQL: sums come from ai_usage_daily (one row per user, day, tool and model,
// kept by a trigger on ai_usage_logs), the latest calls from ai_usage_logs; the browser gets sums, never every row.
import { roundCost } from "../domain/usage-cost";
import {
  RECENT_LOGS,
  budgetState,
  chartStart,
  fillDays,
  monthWindow,
  type AllUsage,
  type DailyUsage,
  type ModelUsage,
  type RecentLog,
  type ToolUsage,
  type UsageStats,
  type UserUsage,
  utcDay,
} from "../domain/usage-stats";

/** This calendar month's spend from the daily roll-up (days are UTC, as the month window is). */
export function monthSpendStatement(d1: D1Database, userId: string, monthStart: string, monthEnd: string) {
  return d1
    .prepare("SELECT coalesce(sum(cost), 0) AS spent FROM ai_usage_daily WHERE user_key = ? AND day >= ? AND day < ?")
    .bind(userId, monthStart.slice(0, 10), monthEnd.slice(0, 10));
}

type SumRow = { count: number; tokens: number | null; cost: number | null };

function sums<T extends SumRow>(row: T) {
  return { count: row.count, tokens: row.tokens ?? 0, cost: roundCost(row.cost ?? 0) };
}

function totalsOf(rows: { count: number; tokens: number; cost: number }[]) {
  return {
    totalUsage: rows.reduce((n, r) => n + r.count, 0),
    totalTokens: rows.reduce((n, r) => n + r.tokens, 0),
    totalCost: roundCost(rows.reduce((n, r) => n + r.cost, 0)),
  };
}

const SUMS = "sum(count) AS count, sum(tokens) AS tokens, sum(cost) AS cost";

/** One user's statistics (spec §3 Usage stats), the 30-day chart and this month's budget, in one D1 round trip. */
export async function getUserUsageStats(d1: D1Database, userId: string, now = new Date()): Promise<UsageStats> {
  const { start: monthStart, end: monthEnd } = monthWindow(now);
  const from = utcDay(chartStart(now));
  const [byTool, recent, daily, month, budget] = await d1.batch<Record<string, unknown>>([
    d1.prepare(`SELECT tool_name, ${SUMS} FROM ai_usage_daily WHERE user_key = ? GROUP BY tool_name ORDER BY count DESC, tool_name`).bind(userId),
    d1
      .prepare(
        `SELECT id, created_at, tool_name, model, total_tokens, estimated_cost, tokens_estimated
         FROM ai_usage_logs WHERE user_id = ? ORDER BY created_at DESC LIMIT ${RECENT_LOGS}`,
      )
      .bind(userId),
    d1
      .prepare(`SELECT day, ${SUMS} FROM ai_usage_daily WHERE user_key = ? AND day >= ? GROUP BY day`)
      .bind(userId, from),
    monthSpendStatement(d1, userId, monthStart, monthEnd),
    d1.prepare("SELECT monthly_usd FROM ai_budgets WHERE user_id = ?").bind(userId),
  ]);
  const tools: ToolUsage[] = (byTool!.results as (SumRow & { tool_name: string })[]).map((r) => ({
    tool_name: r.tool_name,
    ...sums(r),
  }));
  const recentLogs: RecentLog[] = (recent!.results as (Omit<RecentLog, "tokens_estimated"> & { tokens_estimated: number })[]).map((r) => ({
    ...r,
    estimated_cost: roundCost(r.estimated_cost),
    tokens_estimated: Boolean(r.tokens_estimated),
  }));
  const days = (daily!.results as (SumRow & { day: string })[]).map((r) => ({ day: r.day, ...sums(r) }));
  const spent = (month!.results[0] as { spent: number } | undefined)?.spent ?? 0;
  const monthly = (budget!.results[0] as { monthly_usd: number } | undefined)?.monthly_usd ?? null;
  return {
    ...totalsOf(tools),
    usageByTool: tools,
    recentLogs,
    daily: fillDays(days, now),
    budget: budgetState(monthly, spent, now),
  };
}

/** Admins: every user's usage over the last `days` days, by user, tool, model and day. */
export async function getAllUsage(d1: D1Database, days: number, now = new Date()): Promise<AllUsage> {
  const from = utcDay(chartStart(now, days));
  const [byUser, byTool, byModel, byDay] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        `SELECT nullif(l.user_key, '') AS user_id, p.email, p.company_name, b.monthly_usd, l.count, l.tokens, l.cost FROM
           (SELECT user_key, ${SUMS} FROM ai_usage_daily WHERE day >= ? GROUP BY user_key) l
         LEFT JOIN profiles p ON p.id = l.user_key LEFT JOIN ai_budgets b ON b.user_id = l.user_key
         ORDER BY l.cost DESC, l.count DESC LIMIT 500`,
      )
      .bind(from),
    d1.prepare(`SELECT tool_name, ${SUMS} FROM ai_usage_daily WHERE day >= ? GROUP BY tool_name ORDER BY count DESC`).bind(from),
    d1.prepare(`SELECT model, ${SUMS} FROM ai_usage_daily WHERE day >= ? GROUP BY model ORDER BY cost DESC`).bind(from),
    d1.prepare(`SELECT day, ${SUMS} FROM ai_usage_daily WHERE day >= ? GROUP BY day`).bind(from),
  ]);
  const tools: ToolUsage[] = (byTool!.results as (SumRow & { tool_name: string })[]).map((r) => ({ tool_name: r.tool_name, ...sums(r) }));
  const dayRows: DailyUsage[] = (byDay!.results as (SumRow & { day: string })[]).map((r) => ({ day: r.day, ...sums(r) }));
  return {
    days,
    ...totalsOf(tools),
    byUser: (byUser!.results as (SumRow & Omit<UserUsage, "count" | "tokens" | "cost">)[]).map((r) => ({
      user_id: r.user_id,
      email: r.email,
      company_name: r.company_name,
      monthly_usd: r.monthly_usd ?? null,
      ...sums(r),
    })),
    byTool: tools,
    byModel: (byModel!.results as (SumRow & { model: string })[]).map((r) => ({ model: r.model, ...sums(r) }) satisfies ModelUsage),
    byDay: fillDays(dayRows, now, days),
  };
}

export type UsageExportRow = { day: string; user_id: string | null; email: string | null; tool_name: string; model: string } & ReturnType<typeof sums>;

/** Admins' CSV: one row per day, user, tool and model over the window, newest day first. */
export async function getUsageExportRows(d1: D1Database, days: number, now = new Date()): Promise<UsageExportRow[]> {
  const from = utcDay(chartStart(now, days));
  const { results } = await d1
    .prepare(
      `SELECT l.day, nullif(l.user_key, '') AS user_id, p.email, l.tool_name, l.model, l.count, l.tokens, l.cost
       FROM ai_usage_daily l LEFT JOIN profiles p ON p.id = l.user_key WHERE l.day >= ? ORDER BY l.day DESC, p.email, l.tool_name, l.model LIMIT 100000`,
    )
    .bind(from)
    .all<SumRow & { day: string; user_id: string | null; email: string | null; tool_name: string; model: string }>();
  return results.map((r) => ({ day: r.day, user_id: r.user_id, email: r.email, tool_name: r.tool_name, model: r.model, ...sums(r) }));
}
