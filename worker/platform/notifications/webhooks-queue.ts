// webhooks-out queue and its dead-letter queue: each delivery claimed in D1 and sent once; its retries go out as new
// delayed messages (backoff over a day), so a message is retried by the queue only when the consumer itself fails.
import { z } from "zod";
import type { WebhooksOutMessage } from "../env";
import { jobQueue } from "../jobs/consumer";
import { giveUpOnDelivery, processDelivery } from "./webhooks";

export const WEBHOOKS_OUT_QUEUE = "webhooks-out";

export const WebhooksOutBody = z.object({ deliveryId: z.string().min(1).max(100) }) satisfies z.ZodType<WebhooksOutMessage>;

export const webhooksOutQueues = jobQueue({
  queue: WEBHOOKS_OUT_QUEUE,
  body: WebhooksOutBody,
  fields: ({ deliveryId }) => ({ deliveryId }),
  consumer: {
    handle: async (env, { deliveryId }) => {
      await processDelivery(env, deliveryId);
    },
    retryDelay: (attempts) => 30 * attempts,
  },
  deadLetters: {
    handle: (env, { deliveryId }) => giveUpOnDelivery(env, deliveryId),
    retryDelay: () => 60,
    failure: "could not mark the delivery failed",
    done: undefined,
  },
});
