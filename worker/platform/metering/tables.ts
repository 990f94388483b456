// The meter's tables: its counters and open reservations, the AI usage log with its daily roll-up, and the
// admin-set monthly budgets.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, createdAt, updatedAt } from "../db/columns";
import { userIdKey } from "../auth/tables";

export const aiUsageLogs = sqliteTable(
  "ai_usage_logs",
  {
    id: id(),
    eventId: text("event_id").notNull(),
    userId: text("user_id"),
    toolName: text("tool_name").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    totalTokens: integer("total_tokens").notNull().default(0),
    estimatedCost: real("estimated_cost").notNull().default(0),
    requestData: text("request_data"),
    responseData: text("response_data"),
    createdAt: createdAt(),
    /** True when the token counts are the length / 4 estimate because the provider sent no usage. */
    tokensEstimated: integer("tokens_estimated", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("ai_usage_logs_event_unique").on(t.eventId),
    index("ai_usage_logs_user_idx").on(t.userId, t.createdAt),
  ],
);

/** A user's monthly AI budget in US dollars, set by an admin; no row means no limit. */
export const aiBudgets = sqliteTable("ai_budgets", {
  userId: userIdKey(),
  monthlyUsd: real("monthly_usd").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: updatedAt(),
});

/**
 * Daily roll-up of ai_usage_logs per user, tool and model, kept by a trigger on every inserted log row
 * (migrations/0004_usage_rollup_trigger.sql), so GET /api/usage sums a few hundred rows, not every call.
 * `user_key` is the user id, or '' for calls without a user.
 */
export const aiUsageDaily = sqliteTable(
  "ai_usage_daily",
  {
    userKey: text("user_key").notNull(),
    day: text("day").notNull(),
    toolName: text("tool_name").notNull(),
    model: text("model").notNull(),
    count: integer("count").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    cost: real("cost").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userKey, t.day, t.toolName, t.model] }),
    index("ai_usage_daily_day_idx").on(t.day),
  ],
);

/**
 * The meter's counters: one row per cap and period (the period is in the key: `user:<id>:2026-11`,
 * `report:<id>:2026-11-23`, `address:<ip or /64>:2026-11-23T22`, `global:2026-11-23`), in millionths of a dollar.
 * A reservation adds to `reserved`; settling moves it to `settled` at the real figure; a release takes it back.
 */
export const meterCounters = sqliteTable(
  "meter_counters",
  {
    key: text("key").primaryKey(),
    reservedMicro: integer("reserved_micro").notNull().default(0),
    settledMicro: integer("settled_micro").notNull().default(0),
    /** The end of the key's period; the cron deletes rows a while after it. */
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("meter_counters_expires_idx").on(t.expiresAt)],
);

/** Reservations not settled or released yet, so a call whose worker died is given back by the cron sweep. */
export const meterReservations = sqliteTable(
  "meter_reservations",
  {
    id: id(),
    /** JSON array of the meter_counters keys it was added to. */
    keys: text("keys").notNull(),
    amountMicro: integer("amount_micro").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("meter_reservations_created_idx").on(t.createdAt)],
);
