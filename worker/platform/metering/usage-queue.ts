// usage-events consumer and its dead-letter queue: one D1 batch of INSERT OR IGNORE per message batch; malformed bodies are acked and logged.
import { getDb } from "../db/client";
import { insertUsageEvents } from "./usage-store";
import type { Env, UsageEventMessage } from "../env";
import { log, withRequestId } from "../log";
import { UsageEventBody } from "../jobs/messages";

/** Delay before the first redelivery of a batch whose insert failed; doubles each time. */
export const USAGE_RETRY_BASE_SECONDS = 5;
/** The longest wait between two deliveries (with max_retries 10 a message keeps trying for about 25 minutes). */
export const USAGE_RETRY_MAX_SECONDS = 300;

/** min(base·2^(attempt-1), max) seconds, where `attempt` is the delivery that just failed (1-based). */
export function usageRetryDelaySeconds(attempt: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 20));
  return Math.min(USAGE_RETRY_BASE_SECONDS * 2 ** exponent, USAGE_RETRY_MAX_SECONDS);
}

function validEvents(batch: MessageBatch<unknown>, queue: string): ValidEvent[] {
  const valid: ValidEvent[] = [];
  for (const message of batch.messages) {
    const parsed = UsageEventBody.safeParse(message.body);
    if (parsed.success) {
      valid.push({ message, event: parsed.data });
    } else {
      // Retrying would never make it valid.
      withRequestId(message.id, () => log.warn(`${queue}: dropping a malformed message`, { issue: parsed.error.issues[0]?.message }));
      message.ack();
    }
  }
  return valid;
}

type ValidEvent = { message: Message<unknown>; event: UsageEventMessage };

/** One all-or-nothing insert for the batch's valid events: all acked, or each handed to `onFailure`. */
async function store(env: Env, valid: ValidEvent[], onFailure: (v: ValidEvent, error: unknown) => void): Promise<void> {
  if (valid.length === 0) return;
  try {
    await insertUsageEvents(getDb(env), valid.map((v) => v.event));
    for (const v of valid) v.message.ack();
  } catch (error) {
    for (const v of valid) onFailure(v, error);
  }
}

export async function consumeUsageEvents(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const valid = validEvents(batch, "usage-events");
  let failure: unknown;
  // Redelivery is safe: the insert ignores event ids it already has.
  await store(env, valid, (v, error) => {
    failure = error;
    v.message.retry({ delaySeconds: usageRetryDelaySeconds(v.message.attempts) });
  });
  if (failure) {
    const attempt = Math.max(...valid.map((v) => v.message.attempts));
    withRequestId(valid[0]!.message.id, () =>
      log.warn("usage-events: insert failed; retrying the batch", { events: valid.length, attempt, delaySeconds: usageRetryDelaySeconds(attempt) }, failure),
    );
  }
}

/** Delay between two deliveries of a dead-lettered batch. */
export const USAGE_DLQ_RETRY_SECONDS = 300;
/** Must equal `max_retries` of the `usage-events-dlq` consumer in wrangler.toml (a test checks). */
export const USAGE_DLQ_MAX_RETRIES = 12;

/**
 * What the usage-events consumer could not store after all its retries gets another, slower round
 * of tries here (an hour); a message that fails its last delivery is logged with its cost so no loss is silent.
 */
export async function consumeUsageEventsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await store(env, validEvents(batch, "usage-events-dlq"), (v, error) => {
    if (v.message.attempts > USAGE_DLQ_MAX_RETRIES) {
      withRequestId(v.message.id, () =>
        log.error("usage-events-dlq: usage event lost", { eventId: v.event.event_id, tool: v.event.tool_name, cost: v.event.estimated_cost }, error),
      );
      v.message.ack();
    } else {
      v.message.retry({ delaySeconds: USAGE_DLQ_RETRY_SECONDS });
    }
  });
}
