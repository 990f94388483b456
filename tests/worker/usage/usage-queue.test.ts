// The usage-events consumer: one batched INSERT OR IGNORE per batch, redelivery never double-counts, bad bodies are dropped.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import wranglerToml from "../../../wrangler.toml?raw";
import { USAGE_DLQ_MAX_RETRIES, USAGE_DLQ_RETRY_SECONDS } from "../../../worker/platform/metering/usage-queue";
import { usageEvent } from "../../../worker/platform/providers/ai";
import { USAGE_COLUMN_COUNT, USAGE_ROWS_PER_STATEMENT } from "../../../worker/platform/metering/usage-store";
import type { UsageEventMessage } from "../../../worker/platform/env";
import { deliver } from "../reports/reports-fixtures";

function event(userId: string, i: number): UsageEventMessage {
  return usageEvent({
    userId,
    toolName: i % 2 ? "SEO Report Generator" : "SEO Report Generator (Failed)",
    model: "google/gemini-2.5-flash",
    prompt: `prompt ${i} `.repeat(40),
    response: `response ${i}`,
    usage: { input_tokens: 100 + i, output_tokens: 50, total_tokens: 150 + i },
  });
}

async function rowsFor(userId: string) {
  const { results } = await env.DB.prepare(
    "select event_id, tool_name, input_tokens, total_tokens, estimated_cost from ai_usage_logs where user_id = ? order by input_tokens",
  )
    .bind(userId)
    .all<{ event_id: string; tool_name: string; input_tokens: number; total_tokens: number; estimated_cost: number }>();
  return results;
}

describe("usage-events consumer", () => {
  it("sizes multi-row statements under D1's 100 bound parameters", () => {
    expect(USAGE_ROWS_PER_STATEMENT * USAGE_COLUMN_COUNT).toBeLessThanOrEqual(100);
    expect(USAGE_ROWS_PER_STATEMENT).toBe(7);
  });

  it("inserts a full batch of 100 events and acknowledges each", async () => {
    const userId = crypto.randomUUID();
    const events = Array.from({ length: 100 }, (_, i) => event(userId, i));
    const { result, ids } = await deliver("usage-events", events.map((body) => ({ body })), env);
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
    const rows = await rowsFor(userId);
    expect(rows).toHaveLength(100);
    expect(rows[0]).toMatchObject({ event_id: events[0]!.event_id, input_tokens: 100, total_tokens: 150, estimated_cost: events[0]!.estimated_cost });
  });

  it("never double-counts a redelivered event, in the same batch or a later one", async () => {
    const userId = crypto.randomUUID();
    const events = Array.from({ length: 10 }, (_, i) => event(userId, i));
    await deliver("usage-events", [...events, events[3]!].map((body) => ({ body })), env);
    const again = await deliver("usage-events", events.map((body) => ({ body, attempts: 2 })), env);
    expect(again.result.explicitAcks).toHaveLength(10);
    expect(await rowsFor(userId)).toHaveLength(10);
  });

  it("acknowledges and drops messages that are not usage events, keeping the valid ones", async () => {
    const userId = crypto.randomUUID();
    const good = event(userId, 1);
    const { result, ids } = await deliver(
      "usage-events",
      [
        { body: good },
        { body: { ...event(userId, 2), input_tokens: -1 } },
        { body: { ...event(userId, 3), event_id: undefined } },
        { body: "not an event" },
        { body: null },
      ],
      env,
    );
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
    expect((await rowsFor(userId)).map((r) => r.event_id)).toEqual([good.event_id]);
  });

  it("retries the batch when the database write fails", async () => {
    const failingDb = {
      prepare: (sql: string) => env.DB.prepare(sql),
      batch: async () => {
        throw new Error("D1_ERROR: database is locked");
      },
    } as unknown as D1Database;
    const { result, ids, delays } = await deliver("usage-events", [{ body: event(crypto.randomUUID(), 1) }], { ...env, DB: failingDb });
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: ids[0] }]);
    expect(delays).toEqual([{ msgId: ids[0], delaySeconds: 5 }]);
  });
});

describe("usage-events retries and dead letters", () => {
  const failingDb = {
    prepare: (sql: string) => env.DB.prepare(sql),
    batch: async () => {
      throw new Error("D1_ERROR: database is locked");
    },
  } as unknown as D1Database;

  it("backs off exponentially, up to five minutes, while the database keeps failing", async () => {
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      const out = await deliver("usage-events", [{ body: event(crypto.randomUUID(), attempt), attempts: attempt }], { ...env, DB: failingDb });
      expect(out.result.retryMessages).toEqual([{ msgId: out.ids[0] }]);
      delays.push(out.delays[0]!.delaySeconds!);
    }
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 300, 300]);
  });

  it("stores what reaches the dead-letter queue, once, however often it comes", async () => {
    const userId = crypto.randomUUID();
    const events = [event(userId, 1), event(userId, 2)];
    const first = await deliver("usage-events-dlq", events.map((body) => ({ body, attempts: 1 })), env);
    expect(first.result.explicitAcks.sort()).toEqual([...first.ids].sort());
    const again = await deliver("usage-events-dlq", events.map((body) => ({ body, attempts: 2 })), env);
    expect(again.result.explicitAcks).toHaveLength(2);
    expect((await rowsFor(userId)).map((r) => r.event_id).sort()).toEqual(events.map((e) => e.event_id).sort());
  });

  it("retries a dead-lettered event while the database fails, and logs it as lost on the last delivery", async () => {
    const body = event(crypto.randomUUID(), 1);
    const early = await deliver("usage-events-dlq", [{ body, attempts: 1 }], { ...env, DB: failingDb });
    expect(early.result.retryMessages).toEqual([{ msgId: early.ids[0] }]);
    expect(early.delays[0]!.delaySeconds).toBe(USAGE_DLQ_RETRY_SECONDS);

    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const last = await deliver("usage-events-dlq", [{ body, attempts: USAGE_DLQ_MAX_RETRIES + 1 }], { ...env, DB: failingDb });
    expect(last.result.explicitAcks).toEqual(last.ids);
    expect(errors.mock.calls.flat().join(" ")).toContain(body.event_id);
    errors.mockRestore();
  });
});

describe("dead-letter queues in wrangler.toml", () => {
  const consumers = wranglerToml
    .split("[[queues.consumers]]")
    .slice(1)
    .map((block) => ({
      queue: /^queue = "([^"]+)"/m.exec(block)?.[1],
      dlq: /^dead_letter_queue = "([^"]+)"/m.exec(block)?.[1],
      maxRetries: Number(/^max_retries = (\d+)/m.exec(block)?.[1]),
    }));

  it("has a consumer, with code behind it, for every dead-letter queue", async () => {
    const dlqs = consumers.map((c) => c.dlq).filter(Boolean);
    expect(dlqs.sort()).toEqual(["ai-visibility-dlq", "audits-dlq", "citations-dlq", "client-reports-dlq", "gbp-guard-dlq", "gbp-posts-dlq", "mail-out-dlq", "rank-checks-dlq", "report-jobs-dlq", "reviews-dlq", "usage-events-dlq", "webhooks-out-dlq"]);
    for (const dlq of dlqs) {
      expect(consumers.map((c) => c.queue), dlq).toContain(dlq);
      // The queue handler's fallback for an unknown queue retries the whole batch; a real consumer acks a bad body.
      const out = await deliver(dlq!, [{ body: { not: "a message" } }], env);
      expect(out.result.retryBatch.retry, dlq).toBe(false);
      expect(out.result.explicitAcks, dlq).toEqual(out.ids);
    }
  });

  it("keeps USAGE_DLQ_MAX_RETRIES equal to the usage-events-dlq consumer's max_retries", () => {
    expect(consumers.find((c) => c.queue === "usage-events-dlq")?.maxRetries).toBe(USAGE_DLQ_MAX_RETRIES);
  });
});
