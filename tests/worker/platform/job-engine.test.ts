// The job engine on its own: a claim takes a free row once and a stale one again; a consumer acks or retries each
// message on its own with its declared delays; a batch consumer acks all or hands each to its failure rule.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDb } from "../../../worker/platform/db/client";
import { claim } from "../../../worker/platform/jobs/claim";
import { batchConsumer, consumer, deadLetters, doubling } from "../../../worker/platform/jobs/consumer";
import { resendStale } from "../../../worker/platform/jobs/sweep";
import { createUserWithProfile } from "../../../worker/platform/auth/users";
import { createProspectWithReport, reportJob } from "../../../worker/features/reports/queries";
import type { Env } from "../../../worker/platform/env";

type Seen = { acked: string[]; retried: { id: string; delaySeconds: number | undefined }[] };

function batchOf(bodies: unknown[], attempts = 1): { batch: MessageBatch<unknown>; seen: Seen } {
  const seen: Seen = { acked: [], retried: [] };
  const messages = bodies.map((body, i) => ({
    id: `m${i}`,
    timestamp: new Date(),
    body,
    attempts,
    ack: () => seen.acked.push(`m${i}`),
    retry: (o?: QueueRetryOptions) => seen.retried.push({ id: `m${i}`, delaySeconds: o?.delaySeconds }),
  }));
  return { batch: { queue: "test", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>, seen };
}

const Body = z.object({ n: z.number() });

describe("the job engine", () => {
  it("claims a free row once, leaves a fresh claim alone and takes a stale one again", async () => {
    const db = getDb(env);
    const run = crypto.randomUUID().slice(0, 8);
    const user = await createUserWithProfile(db, { email: `engine-${run}@jobs.test`, passwordHash: "x", userMetadata: {}, isAdmin: false });
    const { report } = await createProspectWithReport(db, { prospect: { name: `Engine ${run}`, area: "Springfield", searchText: `engine ${run}` }, questions: "[]", userId: user.id, queued: true });
    const first = "2026-01-01T00:00:00.000Z";
    const [won] = await claim(db, reportJob, [report.id], { now: first, staleBefore: "2025-12-31T23:55:00.000Z" });
    expect(won).toMatchObject({ status: "generating", attempts: 1, claimedAt: first });
    expect(await claim(db, reportJob, [report.id], { now: "2026-01-01T00:01:00.000Z", staleBefore: "2025-12-31T23:56:00.000Z" })).toEqual([]);
    const [again] = await claim(db, reportJob, [report.id], { now: "2026-01-01T00:10:00.000Z", staleBefore: "2026-01-01T00:05:00.000Z" });
    expect(again).toMatchObject({ status: "generating", attempts: 2, claimedAt: "2026-01-01T00:10:00.000Z" });
  });

  it("acks done and malformed messages, retries with the outcome's delay or the declared one, each on its own", async () => {
    const handle = vi.fn(async (_env: Env, { n }: { n: number }) => {
      if (n === 1) return { kind: "retry", delaySeconds: 7 };
      if (n === 2) return { kind: "retry" };
      if (n === 3) throw new Error("boom");
      return { kind: "ack" };
    });
    const consume = consumer({ queue: "test", body: Body, handle, retryDelay: doubling(10, 60) });
    const { batch, seen } = batchOf([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { nope: true }], 3);
    await consume(batch, env as Env);
    expect(seen.acked.sort()).toEqual(["m0", "m4"]);
    expect(seen.retried).toEqual(
      expect.arrayContaining([
        { id: "m1", delaySeconds: 7 },
        { id: "m2", delaySeconds: 40 },
        { id: "m3", delaySeconds: 40 },
      ]),
    );
    expect(handle).toHaveBeenCalledTimes(4);
  });

  it("runs dead letters one after another and retries one that could not be marked after 30 s", async () => {
    const order: number[] = [];
    const consume = deadLetters({
      queue: "test-dlq",
      body: Body,
      handle: async (_env, { n }) => {
        await new Promise((r) => setTimeout(r, n === 0 ? 20 : 0));
        order.push(n);
        if (n === 1) throw new Error("locked");
      },
    });
    const { batch, seen } = batchOf([{ n: 0 }, { n: 1 }]);
    await consume(batch, env as Env);
    expect(order).toEqual([0, 1]);
    expect(seen).toEqual({ acked: ["m0"], retried: [{ id: "m1", delaySeconds: 30 }] });
  });

  it("acks a batch's valid messages together, or hands each to the declared failure rule", async () => {
    const stored: number[][] = [];
    let fail = false;
    const consume = batchConsumer({
      queue: "test",
      body: Body,
      handle: async (_env, bodies) => {
        if (fail) throw new Error("locked");
        stored.push(bodies.map((b) => b.n));
      },
      failed: (items) => {
        for (const { message } of items) message.retry({ delaySeconds: 5 });
      },
    });
    const ok = batchOf([{ n: 1 }, "bad", { n: 2 }]);
    await consume(ok.batch, env as Env);
    expect(stored).toEqual([[1, 2]]);
    expect(ok.seen.acked.sort()).toEqual(["m0", "m1", "m2"]);
    fail = true;
    const failing = batchOf([{ n: 3 }]);
    await consume(failing.batch, env as Env);
    expect(failing.seen).toEqual({ acked: [], retried: [{ id: "m0", delaySeconds: 5 }] });
  });

  it("sends stale items again grouped by their parent", async () => {
    const sent: [string, string[]][] = [];
    const n = await resendStale(
      [
        { scanId: "a", id: "1" },
        { scanId: "b", id: "2" },
        { scanId: "a", id: "3" },
      ],
      (r) => r.id,
      async (ids, scanId) => void sent.push([scanId, ids]),
      (r) => r.scanId,
    );
    expect(n).toBe(3);
    expect(sent).toEqual([
      ["a", ["1", "3"]],
      ["b", ["2"]],
    ]);
  });
});
