// Every metered call appears on the usage screens by tool (issue 26): a grid scan and a tracked keyword's check run
// through the real rank-checks consumer against the search fake, their usage rows through the real usage-events
// consumer; Usage by Tool then names each feature and adds up to what the allowance counts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env, RankCheckMessage, UsageEventMessage } from "../../../worker/platform/env";
import { METERED_TOOL_NAMES, type UsageResponse } from "../../../worker/features/usage/rules/usage-stats";
import { roundCost } from "../../../worker/domain/usage-cost";
import { FAKE_SITE_BUSINESS } from "../../fakes/audit-data";
import { deliver, recorder } from "../reports/reports-fixtures";
import { callWorker, signUp } from "../helpers";

describe("Usage by Tool", () => {
  it("lists grid searches and rank checks by name, and sums to the allowance's spend", async () => {
    const rank = recorder<RankCheckMessage>();
    const usage = recorder<UsageEventMessage>();
    const e = { ...env, RANK_CHECKS: rank.queue, USAGE_EVENTS: usage.queue } as Env;
    const bind = e as unknown as Record<string, unknown>;
    const user = await signUp();
    const token = user.session.access_token;
    const profile = { company_name: FAKE_SITE_BUSINESS.name, company_location: "1200 Main St, Suite 300, Austin, TX 78701", company_phone: FAKE_SITE_BUSINESS.phone, company_category: "Plumbing" };
    expect((await callWorker("/api/profile", { method: "PUT", token, json: profile }, bind)).status).toBe(200);

    const keyword = `plumber ${crypto.randomUUID().slice(0, 8)}`;
    const grid = await callWorker("/api/rank/grids", { method: "POST", token, json: { own: true, radiusMiles: 2, keyword, size: 3 } }, bind);
    expect(grid.status, JSON.stringify(grid.body)).toBe(201);
    const tracked = await callWorker("/api/rank/keywords", { method: "POST", token, json: { own: true, keyword } }, bind);
    expect(tracked.status, JSON.stringify(tracked.body)).toBe(201);
    for (let round = 0; rank.sent.length > 0 && round < 10; round++) {
      await deliver("rank-checks", rank.sent.splice(0).map((body) => ({ body })), e);
    }
    expect(rank.sent).toHaveLength(0);
    await deliver("usage-events", usage.sent.splice(0).map((body) => ({ body })), e);

    const res = await callWorker("/api/usage", { token }, bind);
    expect(res.status).toBe(200);
    const { stats } = res.body as UsageResponse;
    const byTool = Object.fromEntries(stats.usageByTool.map((t) => [t.tool_name, t]));
    expect(byTool[METERED_TOOL_NAMES.gridSearch]?.count).toBe(9);
    // The map pack and the organic results: two searches for one check.
    expect(byTool[METERED_TOOL_NAMES.rankCheck]?.count).toBe(2);
    expect(byTool[METERED_TOOL_NAMES.gridSearch]?.cost).toBeGreaterThan(0);
    // Nothing is left out: the breakdown adds up to what the allowance says was used.
    expect(stats.budget.reserved_usd).toBe(0);
    expect(roundCost(stats.usageByTool.reduce((sum, t) => sum + t.cost, 0))).toBe(stats.budget.spent_usd);
    expect(stats.totalCost).toBe(stats.budget.spent_usd);
  });
});
