// usage-events consumer: one D1 batch of INSERT OR IGNORE per message batch; malformed bodies are acked and logged.
import { insertUsageEvents } from "../worker/db/usage";
import type { Env, UsageEventMessage } from "../worker/env";
import { UsageEventBody } from "./messages";

/** Delay before a batch whose insert failed is delivered again. */
const RETRY_DELAY_SECONDS = 5;

export async function consumeUsageEvents(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const valid: { message: Message<unknown>; event: UsageEventMessage }[] = [];
  for (const message of batch.messages) {
    const parsed = UsageEventBody.safeParse(message.body);
    if (parsed.success) {
      valid.push({ message, event: parsed.data });
    } else {
      // Retrying would never make it valid.
      console.warn("usage-events: dropping a malformed message", message.id, parsed.error.issues[0]?.message);
      message.ack();
    }
  }
  if (valid.length === 0) return;
  try {
    await insertUsageEvents(env.DB, valid.map((v) => v.event));
    for (const v of valid) v.message.ack();
  } catch (error) {
    console.error("usage-events: insert failed; retrying the batch", error);
    for (const v of valid) v.message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
  }
}
