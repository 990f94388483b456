// Queue faults, with nothing lost: 200 reports against a randomly failing AI, every message delivered twice, and a flaky D1 under the usage consumer.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env, ReportJobMessage, UsageEventMessage } from "../../../worker/platform/env";
import { REPORT_JOBS_MAX_RETRIES, REPORT_MAX_ATTEMPTS, REPORT_TOOL_NAME } from "../../../worker/features/reports/config";
import { deliver, ownerId, readReport, recorder, seedReport } from "../reports/reports-fixtures";

const REPORTS = 200;
const SEED = 20261123;
/** The AI fake's seeded random-failure mode (tests/fakes/openai-fake.ts, `chaosMarker`). */
const CHAOS = `[fake:chaos-${SEED}]`;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A D1 binding whose batch() fails a share of the time: half of the failures before anything is
 * written, half after the write committed (the answer lost on the way back), the nastier case.
 */
function flakyD1(real: D1Database, failRate: number, random: () => number) {
  const stats = { batches: 0, failedBefore: 0, failedAfter: 0 };
  const db = {
    prepare: (query: string) => real.prepare(query),
    async batch(statements: D1PreparedStatement[]) {
      stats.batches += 1;
      const r = random();
      if (r < failRate / 2) {
        stats.failedBefore += 1;
        throw new Error("D1_ERROR: database is locked (injected)");
      }
      const results = await real.batch(statements);
      if (r < failRate) {
        stats.failedAfter += 1;
        throw new Error("D1_ERROR: network connection lost (injected, after commit)");
      }
      return results;
    },
  } as unknown as D1Database;
  return { db, stats };
}

type Pending = { id: string; body: unknown; attempts: number };

/**
 * A queue with production's delivery rules, driven by hand: batches of `batchSize`, up to
 * `concurrency` batches at once, a message retried until `maxRetries` redeliveries and then moved
 * to the dead-letter queue, and (at least once delivery) a share of messages delivered twice.
 * Retry delays are recorded but not waited for.
 */
async function drain(
  queue: string,
  bodies: unknown[],
  e: Env,
  opts: { batchSize: number; concurrency: number; maxRetries: number; duplicateRate: number; random: () => number },
) {
  const stats = { deliveries: 0, retries: 0, duplicates: 0, deadLettered: [] as unknown[], delays: [] as number[] };
  const pending: Pending[] = [];
  for (const body of bodies) {
    pending.push({ id: crypto.randomUUID(), body, attempts: 1 });
    if (opts.random() < opts.duplicateRate) {
      stats.duplicates += 1;
      pending.push({ id: crypto.randomUUID(), body, attempts: 1 });
    }
  }
  // Shuffle so a duplicate lands in the same batch sometimes and in a later one other times.
  pending.sort(() => opts.random() - 0.5);
  while (pending.length > 0) {
    const wave = pending.splice(0, opts.batchSize * opts.concurrency);
    const batches: Pending[][] = [];
    for (let i = 0; i < wave.length; i += opts.batchSize) batches.push(wave.slice(i, i + opts.batchSize));
    const outcomes = await Promise.all(batches.map((batch) => deliver(queue, batch, e).then((r) => ({ ...r, sent: batch }))));
    for (const { sent, result, delays } of outcomes) {
      stats.deliveries += sent.length;
      const acked = new Set(result.explicitAcks);
      const retried = new Set(result.retryMessages.map((m: { msgId: string }) => m.msgId));
      for (const d of delays) stats.delays.push(d.delaySeconds ?? 0);
      for (const m of sent) {
        const again = retried.has(m.id) || (result.retryBatch.retry && !acked.has(m.id));
        if (!again) continue;
        stats.retries += 1;
        if (m.attempts > opts.maxRetries) stats.deadLettered.push(m.body);
        else pending.push({ ...m, attempts: m.attempts + 1 });
      }
    }
  }
  return stats;
}

describe("queue chaos", () => {
  it(`finishes all ${REPORTS} reports exactly once while the AI fails 30% of calls, and the usage counts stay exact over a flaky D1`, async () => {
    const random = seeded(SEED);
    const names = Array.from({ length: REPORTS }, (_, i) => `Chaos Roofing ${String(i).padStart(3, "0")}`);
    const reports: { id: string; name: string }[] = [];
    for (const name of names) {
      const seededReport = await seedReport(CHAOS, { name, companyName: `${name} LLC` });
      reports.push({ id: seededReport.id, name });
    }

    // ---- report-jobs: the AI fails 30% of calls (some by never answering), every message may come twice.
    const usage = recorder<UsageEventMessage>();
    const jobs = recorder<ReportJobMessage>();
    const reportEnv: Env = { ...env, AI_API_KEY: "chaos", AI_TIMEOUT_MS: "400", USAGE_EVENTS: usage.queue, REPORT_JOBS: jobs.queue };
    const reportRun = await drain("report-jobs", reports.map((r) => ({ reportId: r.id })), reportEnv, {
      batchSize: 5,
      concurrency: 10,
      maxRetries: REPORT_JOBS_MAX_RETRIES,
      duplicateRate: 0.5,
      random,
    });
    const dlq = await drain("report-jobs-dlq", reportRun.deadLettered, reportEnv, {
      batchSize: 10,
      concurrency: 1,
      maxRetries: 3,
      duplicateRate: 0,
      random,
    });
    expect(dlq.deadLettered).toEqual([]);

    const bySource = { ai: 0, template: 0 };
    for (const r of reports) {
      const row = await readReport(r.id);
      // Ready, saved exactly once (version 1 → 2), within the attempt budget: none stuck, none generated twice.
      expect(row, r.name).toMatchObject({ status: "ready", content_generated: 1, version: 2 });
      expect(row.attempts).toBeLessThanOrEqual(REPORT_MAX_ATTEMPTS);
      expect(["ai", "template"]).toContain(row.source);
      bySource[row.source as "ai" | "template"] += 1;
      // One successful AI answer for an AI report, none for a template one.
      const successes = usage.sent.filter((u) => u.tool_name === REPORT_TOOL_NAME && u.request_data?.includes(`Business name: ${r.name}\n`));
      expect(successes, r.name).toHaveLength(row.source === "ai" ? 1 : 0);
    }
    const failedCalls = usage.sent.filter((u) => u.tool_name !== REPORT_TOOL_NAME).length;
    const timedOut = usage.sent.filter((u) => /"kind":"timeout"/.test(u.response_data ?? "")).length;
    expect(bySource.ai + bySource.template).toBe(REPORTS);
    // The fault mix really happened (seeded, so these hold on every run).
    expect(failedCalls).toBeGreaterThan(REPORTS * 0.2);
    expect(timedOut).toBeGreaterThan(0);
    expect(reportRun.duplicates).toBeGreaterThan(REPORTS * 0.3);
    expect(jobs.sent).toEqual([]);

    // ---- usage-events: every event twice, D1 failing 30% of batches (half of them after committing).
    const flaky = flakyD1(env.DB, 0.3, random);
    // Batches of 10 rather than production's 100, so the flaky database is met many times.
    const usageRun = await drain("usage-events", usage.sent, { ...env, DB: flaky.db }, {
      batchSize: 10,
      concurrency: 2,
      maxRetries: 10,
      duplicateRate: 1,
      random,
    });
    await drain("usage-events-dlq", usageRun.deadLettered, { ...env, DB: flaky.db }, {
      batchSize: 100,
      concurrency: 1,
      maxRetries: 12,
      duplicateRate: 0,
      random,
    });
    expect(flaky.stats.failedBefore).toBeGreaterThan(0);
    expect(flaky.stats.failedAfter).toBeGreaterThan(0);
    expect(usageRun.retries).toBeGreaterThan(0);

    const totals = await env.DB.prepare(
      "select count(*) as n, count(distinct event_id) as events, sum(total_tokens) as tokens, sum(estimated_cost) as cost from ai_usage_logs where user_id = ?",
    )
      .bind(await ownerId())
      .first<{ n: number; events: number; tokens: number; cost: number }>();
    const expectedTokens = usage.sent.reduce((sum, u) => sum + u.total_tokens, 0);
    const expectedCost = usage.sent.reduce((sum, u) => sum + u.estimated_cost, 0);
    expect(totals).toMatchObject({ n: usage.sent.length, events: usage.sent.length, tokens: expectedTokens });
    expect(totals!.cost).toBeCloseTo(expectedCost, 9);

    console.log(
      `queue chaos: ${REPORTS} reports, ${usage.sent.length} AI calls (${failedCalls} failed, ${timedOut} timed out), ` +
        `${reportRun.deliveries} report deliveries (${reportRun.duplicates} duplicates, ${reportRun.retries} retries, ` +
        `${reportRun.deadLettered.length} dead-lettered), ${bySource.ai} AI / ${bySource.template} template; ` +
        `usage: ${usageRun.deliveries} deliveries of ${usage.sent.length} events, ${flaky.stats.batches} D1 batches ` +
        `(${flaky.stats.failedBefore} failed before, ${flaky.stats.failedAfter} after commit), ${usageRun.retries} retries`,
    );
  }, 90_000);
});
