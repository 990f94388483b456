// usage-events queue and its dead-letter queue: one D1 batch of INSERT OR IGNORE per message batch; malformed bodies are acked and logged.
import { z } from "zod";
import { getDb } from "../db/client";
import { insertUsageEvents } from "./usage-store";
import type { Env, UsageEventMessage } from "../env";
import { batchConsumer, doubling } from "../jobs/consumer";
import { announce } from "../events";
import { log, withRequestId } from "../log";

export const USAGE_EVENTS_QUEUE = "usage-events";
export const USAGE_EVENTS_DLQ = "usage-events-dlq";

const count = z.number().int().nonnegative().max(10_000_000);

export const UsageEventBody = z.object({
  event_id: z.string().min(1).max(100),
  user_id: z.string().max(100).nullable(),
  tool_name: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  estimated_cost: z.number().nonnegative().finite(),
  request_data: z.string().nullable(),
  response_data: z.string().nullable(),
  created_at: z.string().min(1).max(40),
  tokens_estimated: z.boolean().optional(),
}) satisfies z.ZodType<UsageEventMessage>;

/** Delay before the first redelivery of a batch whose insert failed; doubles each time. */
export const USAGE_RETRY_BASE_SECONDS = 5;
/** The longest wait between two deliveries (with max_retries 10 a message keeps trying for about 25 minutes). */
export const USAGE_RETRY_MAX_SECONDS = 300;

/** min(base·2^(attempt-1), max) seconds, where `attempt` is the delivery that just failed (1-based). */
export const usageRetryDelaySeconds = doubling(USAGE_RETRY_BASE_SECONDS, USAGE_RETRY_MAX_SECONDS);

/**
 * One all-or-nothing insert for the batch's valid events (redelivery is safe: the insert ignores event ids it has); then
 * each user of the batch is announced once (`client.figures-changed`, group "usage": the agency's clients view reads
 * their spend again). A reaction that fails is logged, never a reason to store the batch again.
 */
async function store(env: Env, events: UsageEventMessage[]): Promise<void> {
  const db = getDb(env);
  await insertUsageEvents(db, events);
  for (const userId of new Set(events.map((e) => e.user_id).filter((id): id is string => !!id))) {
    await announce("client.figures-changed", { env, db, userId, group: "usage" }).catch((error) => log.error("usage-events: clients view not told", { events: events.length }, error));
  }
}

export const usageEventsConsumer = batchConsumer({
  queue: USAGE_EVENTS_QUEUE,
  body: UsageEventBody,
  handle: store,
  failed: (items, error) => {
    for (const { message } of items) message.retry({ delaySeconds: usageRetryDelaySeconds(message.attempts) });
    const attempt = Math.max(...items.map((v) => v.message.attempts));
    withRequestId(items[0]!.message.id, () =>
      log.warn("usage-events: insert failed; retrying the batch", { events: items.length, attempt, delaySeconds: usageRetryDelaySeconds(attempt) }, error),
    );
  },
});

/** Delay between two deliveries of a dead-lettered batch. */
export const USAGE_DLQ_RETRY_SECONDS = 300;
/** Must equal `max_retries` of the `usage-events-dlq` consumer in wrangler.toml (a test checks). */
export const USAGE_DLQ_MAX_RETRIES = 12;

/**
 * What the usage-events consumer could not store after all its retries gets another, slower round
 * of tries here (an hour); a message that fails its last delivery is logged with its cost so no loss is silent.
 */
export const usageEventsDeadLetters = batchConsumer({
  queue: USAGE_EVENTS_DLQ,
  body: UsageEventBody,
  handle: store,
  failed: (items, error) => {
    for (const { message, body } of items) {
      if (message.attempts > USAGE_DLQ_MAX_RETRIES) {
        withRequestId(message.id, () => log.error("usage-events-dlq: usage event lost", { eventId: body.event_id, tool: body.tool_name, cost: body.estimated_cost }, error));
        message.ack();
      } else {
        message.retry({ delaySeconds: USAGE_DLQ_RETRY_SECONDS });
      }
    }
  },
});
