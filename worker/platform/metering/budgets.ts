// Monthly AI allowances: the admin-set override per user, the plan the subscription decides, and this month's
// use from the meter (settled + reserved), read together in one round trip.
import { and, eq, inArray, sql } from "drizzle-orm";
import { allowanceFor, fromMicro, poolFor, userCapKey, type Allowance, type MeterSettings, type PayerPool } from "../../domain/metering";
import { budgetState, type BudgetState } from "./rules/budget";
import type { Db } from "../db/client";
import { batchedRead, runReads } from "../db/batched-read";
import { counterQuery } from "./store";
import { profiles, users } from "../auth/tables";
import { subscriptions } from "../db/refs";
import { aiBudgets } from "./tables";

/** The select of a user's budget override row (dollars per month). */
export function budgetQuery(db: Db, userId: string) {
  return db.select({ monthlyUsd: aiBudgets.monthlyUsd }).from(aiBudgets).where(eq(aiBudgets.userId, userId));
}

/** A user's budget override (dollars per month), or null when none is set. */
export async function getMonthlyBudget(db: Db, userId: string): Promise<number | null> {
  const [row] = await budgetQuery(db, userId);
  return row ? row.monthlyUsd : null;
}

/** Sets (or with null removes) a user's budget override. */
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

/** Whether the user has a subscription in force (the webhook keeps `subscriptions`). */
function activeSubscriptionQuery(db: Db, userId: string) {
  return db
    .select({ one: sql<number>`1` })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ["active", "trialing"])))
    .limit(1);
}

/** Whether the account is an admin (its profile) and its address confirmed (its user row), read from the database. */
function accountQuery(db: Db, userId: string) {
  return db
    .select({ isAdmin: profiles.isAdmin, emailConfirmedAt: users.emailConfirmedAt })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
}

export type AllowanceRead = {
  allowance: Allowance;
  planUsd: number | null;
  overrideUsd: number | null;
  reservedMicro: number;
  settledMicro: number;
  /** The part of the day's ceiling the account draws from, and whether its address is confirmed (issue 39). */
  pool: PayerPool;
  emailConfirmed: boolean;
};

/** The user's allowance and this month's counter, in one round trip. */
export async function readAllowance(db: Db, userId: string, settings: MeterSettings, now = new Date()): Promise<AllowanceRead> {
  const [read] = await runReads(db, allowanceRead(db, userId, settings, now));
  return read;
}

/** readAllowance's queries, to be read in a caller's batch. */
export function allowanceRead(db: Db, userId: string, settings: MeterSettings, now = new Date()) {
  return batchedRead([budgetQuery(db, userId), activeSubscriptionQuery(db, userId), accountQuery(db, userId), counterQuery(db, userCapKey(userId, now))], ([override, active, account, counter]) =>
    allowanceOf(settings, override, active, account, counter),
  );
}

function allowanceOf(
  settings: MeterSettings,
  override: { monthlyUsd: number | null }[],
  active: unknown[],
  account: { isAdmin: boolean | null; emailConfirmedAt: string | null }[],
  counter: { reservedMicro: number; settledMicro: number }[],
): AllowanceRead {
  const overrideUsd = override[0]?.monthlyUsd ?? null;
  const inputs = { subscriptionActive: active.length > 0, isAdmin: Boolean(account[0]?.isAdmin) };
  const allowance = allowanceFor({ ...inputs, overrideUsd }, settings);
  const planUsd = allowanceFor({ ...inputs, overrideUsd: null }, settings).monthlyUsd;
  return {
    allowance,
    planUsd,
    overrideUsd,
    reservedMicro: counter[0]?.reservedMicro ?? 0,
    settledMicro: counter[0]?.settledMicro ?? 0,
    pool: poolFor({ ...inputs, overrideUsd }),
    emailConfirmed: Boolean(account[0]?.emailConfirmedAt),
  };
}

/** The allowance and this calendar month's use (UTC): settled and reserved, as the meter counts them. */
export async function getBudgetState(db: Db, userId: string, settings: MeterSettings, now = new Date()): Promise<BudgetState> {
  const read = await readAllowance(db, userId, settings, now);
  return budgetState(
    { allowance: read.allowance, planUsd: read.planUsd, overrideUsd: read.overrideUsd, spentUsd: fromMicro(read.settledMicro), reservedUsd: fromMicro(read.reservedMicro) },
    now,
  );
}
