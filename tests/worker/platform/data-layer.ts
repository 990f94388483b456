// The data layer's behaviour, written once and run against both drivers: D1 in workerd (data-layer.test.ts here)
// and libSQL in Node (tests/libsql/data-layer.test.ts). Each run marks its rows with a fresh token, so the two
// files never depend on what else the database holds.
import { describe, expect, it } from "vitest";
import { applyBillingEvent, eventSeen, resolveUserId, subscriptionForUser } from "../../../worker/features/billing/queries";
import { getBudgetState, setMonthlyBudget } from "../../../worker/platform/metering/budgets";
import { listConversations, readPublicChatTurn, saveChatTurn } from "../../../worker/features/chat/queries";
import { readCounter, reserve, settle, sweepMeter } from "../../../worker/platform/metering/store";
import { meterSettings } from "../../../worker/domain/metering";
import type { Db } from "../../../worker/platform/db/client";
import {
  deleteProspectAndReport,
  findByNames,
  findProspect,
  insertProspectsWithReports,
  listProspects,
  updateProspectTag,
  type NewProspect,
} from "../../../worker/features/prospects/queries";
import { addToWindow, clearKey, countEvent, currentCount, uncountEvent } from "../../../worker/platform/db/rate-limits";
import { claim } from "../../../worker/platform/jobs/claim";
import { reportJob, createProspectWithReport, getReportWithProspect, markQueued, reportStatuses } from "../../../worker/features/reports/queries";
import { insertUsageEvents } from "../../../worker/platform/metering/usage-store";
import { getAllUsage, getUserUsageStats } from "../../../worker/features/usage/queries";
import { createUserWithProfile, findUserByEmail, updateUser } from "../../../worker/platform/auth/users";
import { prospectSearchText } from "../../../worker/features/prospects/rules/prospect";
import type { UsageEventMessage } from "../../../worker/platform/env";

const SETTINGS = meterSettings({});

function token() {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 10);
}

async function newUser(db: Db, run: string) {
  return createUserWithProfile(db, { email: `data-${run}@layer.test`, passwordHash: "x", userMetadata: {}, isAdmin: false });
}

function prospectRow(userId: string, fields: Pick<NewProspect, "name" | "area"> & Partial<NewProspect>, createdAt: string): NewProspect {
  const p = { keyword: "roofing", description: "", phone: "", email: "", companyName: "", tag: null, ...fields };
  const searchText = prospectSearchText({ ...p, company_name: p.companyName });
  return { id: crypto.randomUUID(), userId, createdAt, searchText, ...p };
}

function usageEvent(userId: string, tool: string, cost: number, tokens: number): UsageEventMessage {
  return {
    event_id: crypto.randomUUID(),
    user_id: userId,
    tool_name: tool,
    model: "test/model",
    input_tokens: tokens - 10,
    output_tokens: 10,
    total_tokens: tokens,
    estimated_cost: cost,
    request_data: null,
    response_data: null,
    created_at: new Date().toISOString(),
  };
}

export function dataLayerSuite(driver: string, database: () => Db) {
  describe(`data layer on ${driver}`, () => {
    it("imports prospects with their reports, finds them by FTS and by the short-query LIKE fallback, pages by cursor, tags and deletes", async () => {
      const db = database();
      const run = token();
      const user = await newUser(db, run);
      const rows = [0, 1, 2].map((i) =>
        prospectRow(
          user.id,
          { name: `Acme ${run} ${i}`, area: `Town${run}`, keyword: i === 1 ? "gutters §¶" : "roofing" },
          new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(),
        ),
      );
      await insertProspectsWithReports(
        db,
        rows.map((prospect) => ({ prospect, report: { id: crypto.randomUUID(), prospectId: prospect.id!, userId: user.id, questions: "[]" } })),
      );

      const found = await listProspects(db, { q: `TOWN${run}`, limit: 10, cursor: null });
      expect(found.total).toBe(3);
      expect(found.items.map((p) => p.name)).toEqual([`Acme ${run} 2`, `Acme ${run} 1`, `Acme ${run} 0`]);
      expect(found.items.every((p) => typeof p.reportId === "string" && p.reportStatus === "draft")).toBe(true);
      expect(found.all).toBeGreaterThanOrEqual(3);

      const short = await listProspects(db, { q: "§¶", limit: 10, cursor: null });
      expect(short.items.map((p) => p.id)).toEqual([rows[1]!.id]);
      expect(short.total).toBe(1);

      const first = await listProspects(db, { q: `town${run}`, limit: 2, cursor: null });
      expect(first.items).toHaveLength(2);
      expect(first.next).not.toBeNull();
      const second = await listProspects(db, { q: `town${run}`, limit: 2, cursor: first.next });
      expect(second.items.map((p) => p.name)).toEqual([`Acme ${run} 0`]);
      expect(second.next).toBeNull();

      expect((await findByNames(db, [`ACME ${run} 0`])).map((p) => p.id)).toEqual([rows[0]!.id]);

      const tagged = (await findProspect(db, rows[2]!.id))!;
      await updateProspectTag(db, tagged, `Hot${run}`);
      const byTag = await listProspects(db, { q: `hot${run}`, limit: 10, cursor: null });
      expect(byTag.items.map((p) => [p.id, p.tag])).toEqual([[rows[2]!.id, `Hot${run}`]]);

      await deleteProspectAndReport(db, rows[2]!.id);
      expect(await findProspect(db, rows[2]!.id)).toBeUndefined();
      expect((await listProspects(db, { q: `hot${run}`, limit: 10, cursor: null })).total).toBe(0);
      expect((await listProspects(db, { q: `town${run}`, limit: 10, cursor: null })).total).toBe(2);
    });

    it("creates a report queued, lets exactly one claim win, and reports its status", async () => {
      const db = database();
      const run = token();
      const user = await newUser(db, run);
      const { report, prospect } = await createProspectWithReport(db, {
        prospect: { name: `Claim ${run}`, area: "Springfield", searchText: `claim ${run}` },
        questions: "[]",
        userId: user.id,
        queued: true,
      });
      expect(report).toMatchObject({ status: "queued", attempts: 0, prospectId: prospect.id, contentGenerated: false });

      const now = new Date().toISOString();
      const staleBefore = new Date(Date.now() - 5 * 60_000).toISOString();
      const [claimed] = await claim(db, reportJob, [report.id], { now, staleBefore });
      expect(claimed).toMatchObject({ status: "generating", attempts: 1, claimedAt: now });
      expect((await claim(db, reportJob, [report.id], { now, staleBefore }))[0] ?? null).toBeNull();
      expect(await markQueued(db, report.id)).toBe(false);

      expect(await reportStatuses(db, [report.id, crypto.randomUUID()])).toEqual([
        { id: report.id, status: "generating", source: null, attempts: 1, contentGenerated: false, generatedAt: null, claimedAt: now },
      ]);
      expect((await getReportWithProspect(db, report.id))?.prospect?.name).toBe(`Claim ${run}`);
    });

    it("inserts usage once per event id and aggregates it per user, tool and month against the budget", async () => {
      const db = database();
      const run = token();
      const user = await newUser(db, run);
      const events = [usageEvent(user.id, "report", 0.01, 100), usageEvent(user.id, "report", 0.02, 200), usageEvent(user.id, "chat", 0.005, 50)];
      await insertUsageEvents(db, events);
      await insertUsageEvents(db, [events[0]!, events[2]!]); // redelivered

      const stats = await getUserUsageStats(db, user.id, SETTINGS);
      expect(stats).toMatchObject({ totalUsage: 3, totalTokens: 350, totalCost: 0.035 });
      expect(stats.usageByTool).toEqual([
        { tool_name: "report", count: 2, tokens: 300, cost: 0.03 },
        { tool_name: "chat", count: 1, tokens: 50, cost: 0.005 },
      ]);
      expect(stats.recentLogs).toHaveLength(3);
      expect(stats.recentLogs.every((l) => l.tokens_estimated === false)).toBe(true);
      expect(stats.daily.reduce((n, d) => n + d.count, 0)).toBe(3);

      await setMonthlyBudget(db, user.id, 0.03, user.id);
      expect(await getBudgetState(db, user.id, SETTINGS)).toMatchObject({ monthly_usd: 0.03, override_usd: 0.03, plan: "Free", over: false });
      await setMonthlyBudget(db, user.id, null, user.id);
      expect(await getBudgetState(db, user.id, SETTINGS)).toMatchObject({ monthly_usd: 1, override_usd: null, over: false });

      const all = await getAllUsage(db, 30);
      expect(all.byUser.find((u) => u.user_id === user.id)).toMatchObject({ email: user.email, count: 3, tokens: 350, cost: 0.035 });
      expect(all.byModel.find((m) => m.model === "test/model")!.count).toBeGreaterThanOrEqual(3);
    });

    it("reserves against every cap or none, settles once, and the sweep settles stale reservations at their estimate", async () => {
      const db = database();
      const run = token();
      const now = new Date();
      const cap = (key: string, limitMicro: number) => ({ scope: "user" as const, key: `${key}:${run}`, limitMicro, expiresAt: "2999-01-01T00:00:00.000Z" });
      const caps = [cap("a", 1000), cap("b", 250)];
      const first = await reserve(db, caps, 200, now);
      expect(first.ok).toBe(true);
      // b has 50 left: refused, and a is left as it was (all or none).
      const second = await reserve(db, caps, 100, now);
      expect(second).toMatchObject({ ok: false });
      expect(!second.ok && [...second.totals.entries()].sort()).toEqual([[`a:${run}`, 200], [`b:${run}`, 200]]);
      if (first.ok) {
        await settle(db, first.reservation, 120);
        await settle(db, first.reservation, 120);
      }
      expect(await readCounter(db, `a:${run}`)).toEqual({ reservedMicro: 0, settledMicro: 120 });
      expect(await readCounter(db, `b:${run}`)).toEqual({ reservedMicro: 0, settledMicro: 120 });
      const stale = await reserve(db, caps, 100, new Date(now.getTime() - 3_600_000));
      expect(stale.ok).toBe(true);
      await sweepMeter(db, new Date(now.getTime() - 60_000), new Date(0));
      expect(await readCounter(db, `b:${run}`)).toEqual({ reservedMicro: 0, settledMicro: 220 });
      // A late settle of the swept reservation counts nothing twice.
      if (stale.ok) await settle(db, stale.reservation, 40);
      expect(await readCounter(db, `b:${run}`)).toEqual({ reservedMicro: 0, settledMicro: 220 });
    });

    it("counts rate-limit windows with upserts", async () => {
      const db = database();
      const limit = { key: `data-layer:${token()}`, max: 3, windowSeconds: 60 };
      const now = Date.UTC(2030, 0, 1, 0, 0, 10);
      expect(await countEvent(db, limit, now)).toBe(1);
      expect(await countEvent(db, limit, now)).toBe(2);
      expect(await currentCount(db, limit, now)).toBe(2);
      await uncountEvent(db, limit);
      expect(await currentCount(db, limit, now)).toBe(1);
      expect(await countEvent(db, limit, now + 60_000)).toBe(1);
      expect(await addToWindow(db, limit, 5, now + 60_000)).toBe(6);
      await clearKey(db, limit.key);
      expect(await currentCount(db, limit, now + 60_000)).toBe(0);
    });

    it("keeps a shared chat's session, turns and lead, with its rate-limit counts read in the same batch", async () => {
      const db = database();
      const run = token();
      const user = await newUser(db, run);
      const { report } = await createProspectWithReport(db, {
        prospect: { name: `Chat ${run}`, area: "Shelbyville" },
        questions: "[]",
        userId: user.id,
        queued: false,
      });
      const ipLimit = { key: `ip:${run}`, max: 10, windowSeconds: 60 };
      const reportLimit = { key: `report:${run}`, max: 10, windowSeconds: 60 };
      const input = { reportId: report.id, visitorId: `visitor-${run}`, ipLimit, reportLimit };
      // A message to a report that does not exist counts nothing.
      const missing = await readPublicChatTurn(db, { ...input, reportId: crypto.randomUUID() });
      expect(missing).toMatchObject({ subject: null, ipCount: 0, reportCount: 0 });
      expect(await currentCount(db, ipLimit)).toBe(0);
      const before = await readPublicChatTurn(db, input);
      expect(before).toMatchObject({ ipCount: 1, reportCount: 1, session: { answerCount: 0, leadAskedAt: null } });
      expect(before.subject).toMatchObject({ reportId: report.id, name: `Chat ${run}`, area: "Shelbyville" });
      expect(before.audit).toEqual({ audit: null, chatBlock: null, steps: [], listingChecks: [], aiScan: null });
      expect(await readPublicChatTurn(db, { ...input, reportLimit: null })).toMatchObject({ ipCount: 2, reportCount: 0 });

      const at = new Date().toISOString();
      await saveChatTurn(db, { session: before.session, question: "Hi?", answer: "Hello!", askedAt: at, answeredAt: at, leadAsked: true, lead: null });
      await saveChatTurn(db, {
        session: before.session,
        question: "I'm Ann, 555-0100",
        answer: "Thanks!",
        askedAt: at,
        answeredAt: at,
        leadAsked: false,
        lead: { name: "Ann", phone: "555-0100", email: null },
      });
      const after = await readPublicChatTurn(db, input);
      expect(after).toMatchObject({ ipCount: 3, reportCount: 2, session: { answerCount: 2, leadAskedAt: at } });

      const listed = await listConversations(db, report.id, 10);
      expect(listed.next).toBeNull();
      const [conversation, ...rest] = listed.conversations;
      expect(rest).toHaveLength(0);
      expect(conversation!.pinned).toBe(true);
      expect(conversation!.session).toMatchObject({ messageCount: 4, leadName: "Ann", leadPhone: "555-0100", leadEmail: null });
      expect(conversation!.turns.map((t) => `${t.role}:${t.content}`)).toEqual(["user:Hi?", "assistant:Hello!", "user:I'm Ann, 555-0100", "assistant:Thanks!"]);
    });

    it("applies a billing event once, resolving the user by reference or email; a replay is a duplicate", async () => {
      const db = database();
      const run = token();
      const user = await newUser(db, run);
      expect((await findUserByEmail(db, user.email.toUpperCase()))?.id).toBe(user.id);
      // An email matches only once its owner confirmed it: anyone can sign up with someone else's address.
      expect(await resolveUserId(db, "no-such-user", user.email.toUpperCase())).toBeNull();
      await updateUser(db, user.id, { emailConfirmedAt: new Date().toISOString() });
      expect(await resolveUserId(db, "no-such-user", user.email.toUpperCase())).toBe(user.id);
      const event = { id: `evt_${run}`, type: "customer.subscription.updated", created: 1_900_000_000 };
      const change = {
        stripeSubscriptionId: `sub_${run}`,
        stripeCustomerId: `cus_${run}`,
        userId: user.id,
        customerEmail: user.email,
        status: "active",
        plan: "pro",
        interval: "month" as const,
        currentPeriodEnd: "2030-02-01T00:00:00.000Z",
        eventCreated: event.created,
      };
      expect(await applyBillingEvent(db, event, change)).toBe("applied");
      expect(await eventSeen(db, event.id)).toBe(true);
      expect(await applyBillingEvent(db, event, { ...change, status: "canceled" })).toBe("duplicate");
      // An older event keeps identity fields but does not roll the state back.
      expect(await applyBillingEvent(db, { ...event, id: `evt_old_${run}`, created: event.created - 10 }, { ...change, status: "past_due", plan: null, eventCreated: event.created - 10 })).toBe(
        "applied",
      );
      expect(await subscriptionForUser(db, user.id)).toEqual({
        status: "active",
        plan: "pro",
        interval: "month",
        currentPeriodEnd: "2030-02-01T00:00:00.000Z",
        active: true,
      });
    });
  });
}
