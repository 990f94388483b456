// /api/usage: the AI usage statistics of the subject (aggregated in SQL), and for admins every user's, with a CSV export.
import { Hono } from "hono";
import { adminMfaMissing, requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getAllUsage, getUsageExportRows, getUserUsageStats } from "./queries";
import { toCsv } from "../../domain/csv";
import { UsageQuery, type UsageResponse } from "./rules/usage-stats";
import { settingsOf } from "../../platform/metering/meter";
import { validate } from "../../platform/validate";

export const usageRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", validate("query", UsageQuery), async (c) => {
    const { scope, days } = c.req.valid("query");
    const subject = c.get("subject");
    // Every user's usage only for an admin acting as themselves (not while viewing as a regular user).
    // (REQUIRE_ADMIN_MFA: from an aal2 session; otherwise the own figures only, as for the admin routes' 403.)
    const wantsAll = scope === "all" && subject.isAdmin && !adminMfaMissing(c.env, c.get("caller"));
    const [stats, all] = await Promise.all([
      getUserUsageStats(getDb(c.env), subject.id, settingsOf(c.env)),
      wantsAll ? getAllUsage(getDb(c.env), days) : Promise.resolve(null),
    ]);
    const body: UsageResponse = { stats, all };
    return c.json(body);
  })

  .get("/export.csv", requireAdmin, validate("query", UsageQuery), async (c) => {
    const { days } = c.req.valid("query");
    const rows = await getUsageExportRows(getDb(c.env), days);
    const csv = toCsv([
      ["day", "user_id", "email", "tool", "model", "uses", "tokens", "cost_usd"],
      ...rows.map((r) => [r.day, r.user_id, r.email, r.tool_name, r.model, r.count, r.tokens, r.cost.toFixed(6)]),
    ]);
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="ai-usage-${new Date().toISOString().slice(0, 10)}.csv"`,
    });
  });
