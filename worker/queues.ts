// Routes each queue batch to its consumer: the platform's queues one line each, and each capability's queues as it
// declares them in its capability.ts (worker/registry.ts lists the capabilities).
import type { Env } from "./platform/env";
import type { QueueConsumer } from "./platform/jobs/consumer";
import { capabilities } from "./registry";
import { mailOutQueues } from "./platform/mail/queue";
import { usageEventsConsumer, usageEventsDeadLetters } from "./platform/metering/usage-queue";
import { webhooksOutQueues } from "./platform/notifications/webhooks-queue";

const consumers: Record<string, QueueConsumer> = {
  "usage-events": usageEventsConsumer,
  "usage-events-dlq": usageEventsDeadLetters,
  ...mailOutQueues,
  ...webhooksOutQueues,
  ...Object.assign({}, ...capabilities.map((c): Record<string, QueueConsumer> => ("queues" in c ? c.queues : {}))),
};

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  void ctx;
  const consume = Object.hasOwn(consumers, batch.queue) ? consumers[batch.queue] : undefined;
  // Unknown queue: retry so nothing is lost while a consumer is being deployed.
  if (!consume) return batch.retryAll();
  return consume(batch, env);
}
