// GET /api/usage against figures worked out by hand, admins' all-users view and CSV, budgets and the budget check.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getBudgetState } from "../../../worker/platform/metering/budgets";
import { getDb } from "../../../worker/platform/db/client";
import type { Env } from "../../../worker/platform/env";
import { reserveCall, settingsOf, userPayer } from "../../../worker/platform/metering/meter";
import { api, signUp, signUpAdmin } from "../helpers";

type Log = { tool: string; model: string; input: number; output: number; cost: number; at: string; estimated?: boolean };

async function seed(userId: string, logs: Log[]) {
  await env.DB.batch(
    logs.map((l) =>
      env.DB.prepare(
        `insert into ai_usage_logs (id, event_id, user_id, tool_name, model, input_tokens, output_tokens, total_tokens, estimated_cost, created_at, tokens_estimated)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(crypto.randomUUID(), crypto.randomUUID(), userId, l.tool, l.model, l.input, l.output, l.input + l.output, l.cost, l.at, l.estimated ? 1 : 0),
    ),
  );
}

const today = new Date();
const iso = (daysAgo: number, hour = 12) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - daysAgo, hour)).toISOString();
const day = (daysAgo: number) => iso(daysAgo).slice(0, 10);

// Costs by the spec's table: gpt-4 is $0.03 / $0.06 per 1,000 tokens in / out.
//   1000 in + 500 out = 0.03 + 0.03 = $0.06;  200 in + 100 out = 0.006 + 0.006 = $0.012
// gemini-2.0-flash-lite is $0.0001 / $0.0002:  1234 in + 567 out = 0.0001234 + 0.0001134 = $0.0002368
const LOGS: Log[] = [
  { tool: "Facebook Post Generator", model: "gpt-4", input: 1000, output: 500, cost: 0.06, at: iso(0, 9) },
  { tool: "Facebook Post Generator", model: "gpt-4", input: 200, output: 100, cost: 0.012, at: iso(0, 10) },
  { tool: "SEO Report Generator", model: "gemini-2.0-flash-lite", input: 1234, output: 567, cost: 0.0002368, at: iso(3), estimated: true },
  { tool: "Facebook Post Generator (Failed)", model: "gpt-4", input: 50, output: 0, cost: 0.0015, at: iso(40) },
];

describe("GET /api/usage", () => {
  it("sums uses, tokens and cost per tool in SQL, the latest 10 calls and a 30-day chart", async () => {
    const { session, user } = await signUp();
    await seed(user.id, LOGS);
    const res = await api("/api/usage", { token: session.access_token });
    expect(res.status).toBe(200);
    const { stats, all } = res.body;
    expect(all).toBeNull();
    // 4 uses; tokens 1500 + 300 + 1801 + 50 = 3651; cost 0.06 + 0.012 + 0.0002368 + 0.0015 = 0.0737368
    expect(stats).toMatchObject({ totalUsage: 4, totalTokens: 3651, totalCost: 0.073737 });
    expect(stats.usageByTool).toEqual([
      { tool_name: "Facebook Post Generator", count: 2, tokens: 1800, cost: 0.072 },
      { tool_name: "Facebook Post Generator (Failed)", count: 1, tokens: 50, cost: 0.0015 },
      { tool_name: "SEO Report Generator", count: 1, tokens: 1801, cost: 0.000237 },
    ]);
    expect(stats.recentLogs.map((l: { total_tokens: number }) => l.total_tokens)).toEqual([300, 1500, 1801, 50]);
    expect(stats.recentLogs[2]).toMatchObject({ model: "gemini-2.0-flash-lite", tokens_estimated: true, estimated_cost: 0.000237 });

    expect(stats.daily).toHaveLength(30);
    expect(stats.daily[29]).toEqual({ day: day(0), tokens: 1800, cost: 0.072, count: 2 });
    expect(stats.daily[26]).toEqual({ day: day(3), tokens: 1801, cost: 0.000237, count: 1 });
    expect(stats.daily[0].day).toBe(day(29));
    expect(stats.daily.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(3); // the 40-day-old call is outside
    expect(stats.budget).toMatchObject({ plan: "Free", monthly_usd: 1, override_usd: null, over: false });
  });

  it("keeps only the 10 newest calls in Recent Activity", async () => {
    const { session, user } = await signUp();
    await seed(user.id, Array.from({ length: 12 }, (_, i) => ({ tool: "T", model: "gpt-4", input: i, output: 0, cost: 0, at: iso(0, i) })));
    const { stats } = (await api("/api/usage", { token: session.access_token })).body;
    expect(stats.totalUsage).toBe(12);
    expect(stats.recentLogs.map((l: { total_tokens: number }) => l.total_tokens)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  });

  it("shows an empty panel for a user without calls, and never another user's", async () => {
    const other = await signUp();
    await seed(other.user.id, LOGS);
    const { session } = await signUp();
    const { stats } = (await api("/api/usage", { token: session.access_token })).body;
    expect(stats).toMatchObject({ totalUsage: 0, totalTokens: 0, totalCost: 0, usageByTool: [], recentLogs: [] });
  });

  it("refuses without a session, and gives every user's usage only to admins", async () => {
    expect((await api("/api/usage")).status).toBe(401);
    const { session } = await signUp();
    expect((await api("/api/usage?scope=all", { token: session.access_token })).body.all).toBeNull();
    expect((await api("/api/usage/export.csv", { token: session.access_token })).status).toBe(403);
    expect((await api("/api/usage?days=0", { token: session.access_token })).status).toBe(400);
  });

  it("gives admins all users by user, tool, model and day, and the same figures as CSV", async () => {
    const a = await signUp();
    const b = await signUp();
    await seed(a.user.id, LOGS);
    await seed(b.user.id, [{ tool: "AI Chat", model: "claude-2", input: 1000, output: 1000, cost: 0.032, at: iso(1) }]);
    const admin = await signUpAdmin();
    const res = await api("/api/usage?scope=all&days=30", { token: admin.session.access_token });
    const all = res.body.all;
    const userA = all.byUser.find((u: { user_id: string }) => u.user_id === a.user.id);
    expect(userA).toMatchObject({ email: a.email, count: 3, tokens: 3601, cost: 0.072237 });
    expect(all.byUser.find((u: { user_id: string }) => u.user_id === b.user.id)).toMatchObject({ count: 1, tokens: 2000, cost: 0.032 });
    expect(all.byModel.find((m: { model: string }) => m.model === "claude-2")?.count).toBeGreaterThanOrEqual(1);
    expect(all.byDay).toHaveLength(30);

    const csv = await api("/api/usage/export.csv?days=30", { token: admin.session.access_token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const lines = (csv.body as string).trim().split("\r\n");
    // Every cell is quoted (formula-injection safe CSV).
    const row = (...cells: (string | number)[]) => cells.map((v) => `"${v}"`).join(",");
    expect(lines[0]).toBe(row("day", "user_id", "email", "tool", "model", "uses", "tokens", "cost_usd"));
    expect(lines).toContain(row(day(0), a.user.id, a.email, "Facebook Post Generator", "gpt-4", 2, 1800, "0.072000"));
    expect(lines).toContain(row(day(1), b.user.id, b.email, "AI Chat", "claude-2", 1, 2000, "0.032000"));
  });
});

describe("monthly AI budgets", () => {
  it("admins set, read and remove a budget; the panel shows spend against it", async () => {
    const { session, user } = await signUp();
    await seed(user.id, LOGS);
    const admin = await signUpAdmin();
    const put = await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: 10 }) });
    expect(put.status).toBe(200);
    expect(put.body.budget).toMatchObject({ monthly_usd: 10, over: false });
    const panel = (await api("/api/usage", { token: session.access_token })).body.stats.budget;
    // The allowance counts what the meter settled and reserved this month (the seeded logs bypassed the meter).
    expect(panel).toMatchObject({ monthly_usd: 10, override_usd: 10, plan: "Free", plan_usd: 1, spent_usd: 0, reserved_usd: 0, left_usd: 10, over: false });

    const removed = await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: null }) });
    expect(removed.body.budget).toMatchObject({ override_usd: null, monthly_usd: 1 });
    const read = await api(`/api/admin/users/${user.id}/budget`, { token: admin.session.access_token });
    expect(read.body.budget).toMatchObject({ override_usd: null, monthly_usd: 1, plan: "Free" });
  });

  it("refuses non-admins, unknown users and negative budgets", async () => {
    const { session, user } = await signUp();
    expect((await api(`/api/admin/users/${user.id}/budget`, { token: session.access_token })).status).toBe(403);
    const admin = await signUpAdmin();
    expect((await api(`/api/admin/users/nobody/budget`, { token: admin.session.access_token })).status).toBe(404);
    const bad = await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: -1 }) });
    expect(bad.status).toBe(400);
  });

  it("cuts off at the allowance: under it a reservation passes, reaching it refuses with ai_budget_exceeded, next month starts again", async () => {
    const { user } = await signUp();
    const admin = await signUpAdmin();
    await api(`/api/admin/users/${user.id}/budget`, { method: "PUT", token: admin.session.access_token, body: JSON.stringify({ monthly_usd: 0.05 }) });
    const now = new Date(Date.UTC(2031, 4, 20, 12));
    const e = env as Env;
    const payer = await userPayer(e, getDb(env), user.id, now);
    expect(payer).toEqual({ kind: "user", userId: user.id, allowanceUsd: 0.05, pool: "paying", emailConfirmed: true });
    // Three searches ($0.015 each) fit in $0.05; the fourth would pass it.
    for (let i = 0; i < 3; i++) expect((await reserveCall(e, payer, { kind: "search" }, now)).ok).toBe(true);
    const refused = await reserveCall(e, payer, { kind: "search" }, now);
    expect(refused).toMatchObject({ ok: false, refusal: { scope: "user", code: "ai_budget_exceeded" } });
    expect(!refused.ok && refused.refusal.message).toBe(
      "You have used your monthly AI budget of $0.05. AI features are paused until June 1 or until an administrator raises your budget.",
    );
    const state = await getBudgetState(getDb(env), user.id, settingsOf(e), now);
    expect(state).toMatchObject({ monthly_usd: 0.05, override_usd: 0.05, plan: "Free", plan_usd: 1, spent_usd: 0, reserved_usd: 0.045, used_usd: 0.045, left_usd: 0.005, over: false });
    // June: last month's use no longer counts.
    expect((await getBudgetState(getDb(env), user.id, settingsOf(e), new Date(Date.UTC(2031, 5, 1, 0, 0, 1)))).used_usd).toBe(0);
  });

  it("the plan decides the allowance: Free, then Self Service while the subscription is active, and admins are bounded by the ceiling only", async () => {
    const { user } = await signUp();
    const e = env as Env;
    expect(await getBudgetState(getDb(env), user.id, settingsOf(e))).toMatchObject({ plan: "Free", monthly_usd: 1, override_usd: null });
    await env.DB.prepare("insert into subscriptions (id, user_id, stripe_subscription_id, status, state_event_created) values (?, ?, ?, 'active', 1)")
      .bind(crypto.randomUUID(), user.id, `sub_${crypto.randomUUID()}`)
      .run();
    expect(await getBudgetState(getDb(env), user.id, settingsOf(e))).toMatchObject({ plan: "Self Service", monthly_usd: 30 });
    expect(await getBudgetState(getDb(env), user.id, settingsOf({ ...e, PLAN_ALLOWANCE_SELF_SERVICE_USD: "12.5" }))).toMatchObject({ monthly_usd: 12.5 });
    const admin = await signUpAdmin();
    expect(await getBudgetState(getDb(env), admin.user.id, settingsOf(e))).toMatchObject({ monthly_usd: null, left_usd: null, over: false });
  });
});
