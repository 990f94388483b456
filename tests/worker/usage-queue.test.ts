// The usage-events consumer: one batched INSERT OR IGNORE per batch, redelivery never double-counts, bad bodies are dropped.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { usageEvent } from "../../worker/ai/client";
import { USAGE_COLUMN_COUNT, USAGE_ROWS_PER_STATEMENT } from "../../worker/db/usage";
import type { UsageEventMessage } from "../../worker/env";
import { deliver } from "./reports-fixtures";

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
