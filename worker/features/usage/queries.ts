// Aggregates for GET /api/usage, all in SQL: sums come from ai_usage_daily (one row per user, day, tool and model,
// kept by a trigger on ai_usage_logs), the latest calls from ai_usage_logs; the browser gets sums, never every row.
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { roundCost } from "../../domain/usage-cost";
import { meterSettings, type MeterSettings } from "../../domain/metering";
import {
  RECENT_LOGS,
  chartStart,
  fillDays,
  type AllUsage,
  type DailyUsage,
  type ModelUsage,
  type RecentLog,
  type ToolUsage,
  type UsageStats,
  type UserUsage,
  utcDay,
} from "./rules/usage-stats";
import { allowanceRead, getBudgetState } from "../../platform/metering/budgets";
import { runReads, type BatchedRead } from "../../platform/db/batched-read";
import { usageClientFiguresOf, type UsageClientFigures } from "./rules/client-figures";
import type { Db } from "../../platform/db/client";
import { profiles } from "../../platform/auth/tables";
import { aiBudgets, aiUsageDaily, aiUsageLogs } from "../../platform/metering/tables";

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

/** The summed columns of a group of ai_usage_daily rows, named as the rows they come from. */
function SUMS() {
  return {
    count: sql<number>`sum(${aiUsageDaily.count})`.as("count"),
    tokens: sql<number | null>`sum(${aiUsageDaily.tokens})`.as("tokens"),
    cost: sql<number | null>`sum(${aiUsageDaily.cost})`.as("cost"),
  };
}
const byCount = sql`count`;
const byCost = sql`cost`;

/** One user's statistics (spec §3 Usage stats), the 30-day chart and this month's budget, in one round trip. */
export async function getUserUsageStats(db: Db, userId: string, settings: MeterSettings, now = new Date()): Promise<UsageStats> {
  const from = utcDay(chartStart(now));
  const mine = eq(aiUsageDaily.userKey, userId);
  const [[byTool, recent, daily], budget] = await Promise.all([
    db.batch([
      db
        .select({ tool_name: aiUsageDaily.toolName, ...SUMS() })
        .from(aiUsageDaily)
        .where(mine)
        .groupBy(aiUsageDaily.toolName)
        .orderBy(desc(byCount), aiUsageDaily.toolName),
      db
        .select({
          id: aiUsageLogs.id,
          created_at: aiUsageLogs.createdAt,
          tool_name: aiUsageLogs.toolName,
          model: aiUsageLogs.model,
          total_tokens: aiUsageLogs.totalTokens,
          estimated_cost: aiUsageLogs.estimatedCost,
          tokens_estimated: aiUsageLogs.tokensEstimated,
        })
        .from(aiUsageLogs)
        .where(eq(aiUsageLogs.userId, userId))
        .orderBy(desc(aiUsageLogs.createdAt))
        .limit(RECENT_LOGS),
      db
        .select({ day: aiUsageDaily.day, ...SUMS() })
        .from(aiUsageDaily)
        .where(and(mine, gte(aiUsageDaily.day, from)))
        .groupBy(aiUsageDaily.day),
    ]),
    getBudgetState(db, userId, settings, now),
  ]);
  const tools: ToolUsage[] = byTool.map((r) => ({ tool_name: r.tool_name, ...sums(r) }));
  const recentLogs: RecentLog[] = recent.map((r) => ({
    ...r,
    estimated_cost: roundCost(r.estimated_cost),
    tokens_estimated: Boolean(r.tokens_estimated),
  }));
  const days = daily.map((r) => ({ day: r.day, ...sums(r) }));
  return {
    ...totalsOf(tools),
    usageByTool: tools,
    recentLogs,
    daily: fillDays(days, now),
    budget,
  };
}

/** Admins: every user's usage over the last `days` days, by user, tool, model and day. */
export async function getAllUsage(db: Db, days: number, now = new Date()): Promise<AllUsage> {
  const from = utcDay(chartStart(now, days));
  const inWindow = gte(aiUsageDaily.day, from);
  const perUser = db
    .select({ userKey: aiUsageDaily.userKey, ...SUMS() })
    .from(aiUsageDaily)
    .where(inWindow)
    .groupBy(aiUsageDaily.userKey)
    .as("l");
  const [byUser, byTool, byModel, byDay] = await db.batch([
    db
      .select({
        user_id: sql<string | null>`nullif(${perUser.userKey}, '')`,
        email: profiles.email,
        company_name: profiles.companyName,
        monthly_usd: aiBudgets.monthlyUsd,
        count: perUser.count,
        tokens: perUser.tokens,
        cost: perUser.cost,
      })
      .from(perUser)
      .leftJoin(profiles, eq(profiles.id, perUser.userKey))
      .leftJoin(aiBudgets, eq(aiBudgets.userId, perUser.userKey))
      .orderBy(desc(perUser.cost), desc(perUser.count))
      .limit(500),
    db.select({ tool_name: aiUsageDaily.toolName, ...SUMS() }).from(aiUsageDaily).where(inWindow).groupBy(aiUsageDaily.toolName).orderBy(desc(byCount)),
    db.select({ model: aiUsageDaily.model, ...SUMS() }).from(aiUsageDaily).where(inWindow).groupBy(aiUsageDaily.model).orderBy(desc(byCost)),
    db.select({ day: aiUsageDaily.day, ...SUMS() }).from(aiUsageDaily).where(inWindow).groupBy(aiUsageDaily.day),
  ]);
  const tools: ToolUsage[] = byTool.map((r) => ({ tool_name: r.tool_name, ...sums(r) }));
  const dayRows: DailyUsage[] = byDay.map((r) => ({ day: r.day, ...sums(r) }));
  return {
    days,
    ...totalsOf(tools),
    byUser: byUser.map((r) => ({
      user_id: r.user_id,
      email: r.email,
      company_name: r.company_name,
      monthly_usd: r.monthly_usd ?? null,
      ...sums(r),
    })) satisfies UserUsage[],
    byTool: tools,
    byModel: byModel.map((r) => ({ model: r.model, ...sums(r) }) satisfies ModelUsage),
    byDay: fillDays(dayRows, now, days),
  };
}

export type UsageExportRow = { day: string; user_id: string | null; email: string | null; tool_name: string; model: string } & ReturnType<typeof sums>;

/** Admins' CSV: one row per day, user, tool and model over the window, newest day first. */
export async function getUsageExportRows(db: Db, days: number, now = new Date()): Promise<UsageExportRow[]> {
  const from = utcDay(chartStart(now, days));
  const rows = await db
    .select({
      day: aiUsageDaily.day,
      user_id: sql<string | null>`nullif(${aiUsageDaily.userKey}, '')`,
      email: profiles.email,
      tool_name: aiUsageDaily.toolName,
      model: aiUsageDaily.model,
      count: aiUsageDaily.count,
      tokens: aiUsageDaily.tokens,
      cost: aiUsageDaily.cost,
    })
    .from(aiUsageDaily)
    .leftJoin(profiles, eq(profiles.id, aiUsageDaily.userKey))
    .where(gte(aiUsageDaily.day, from))
    .orderBy(desc(aiUsageDaily.day), profiles.email, aiUsageDaily.toolName, aiUsageDaily.model)
    .limit(100000);
  return rows.map((r) => ({ day: r.day, user_id: r.user_id, email: r.email, tool_name: r.tool_name, model: r.model, ...sums(r) }));
}

/**
 * One client's usage figures (issue 41) in one D1 round trip: the meter's own read of the allowance and this month's
 * counter (readAllowance, one batch). `settings` are the operator's (meterSettings(env)); the defaults without them.
 */
export async function usageClientFigures(db: Db, userId: string, settings: MeterSettings = meterSettings({}), now = new Date()): Promise<UsageClientFigures> {
  const [figures] = await runReads(db, usageClientFiguresRead(db, userId, settings, now));
  return figures;
}

/** usageClientFigures's queries, for a caller's batch. */
export function usageClientFiguresRead(db: Db, userId: string, settings: MeterSettings = meterSettings({}), now = new Date()): BatchedRead<UsageClientFigures> {
  const allowance = allowanceRead(db, userId, settings, now);
  return { queries: allowance.queries, read: (results) => {
    const read = allowance.read(results);
    return usageClientFiguresOf({ settledMicro: read.settledMicro, monthlyUsd: read.allowance.monthlyUsd });
  } };
}
