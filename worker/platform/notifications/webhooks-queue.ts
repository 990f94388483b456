// webhooks-out consumer and its dead-letter queue: each delivery claimed in D1 and sent once; its retries go out as new
// delayed messages (backoff over a day), so a message is retried by the queue only when the consumer itself fails.
import type { Env } from "../env";
import { log, withRequestId } from "../log";
import { giveUpOnDelivery, processDelivery } from "./webhooks";
import { WebhooksOutBody } from "../jobs/messages";

function parse(message: Message<unknown>, queue: string): string | null {
  const parsed = WebhooksOutBody.safeParse(message.body);
  if (parsed.success) return parsed.data.deliveryId;
  log.warn(`${queue}: dropping a malformed message`, { issue: parsed.error.issues[0]?.message });
  message.ack();
  return null;
}

export async function consumeWebhooksOut(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const deliveryId = parse(message, "webhooks-out");
        if (!deliveryId) return;
        try {
          await processDelivery(env, deliveryId);
          message.ack();
        } catch (error) {
          log.error("webhooks-out: unexpected failure", { deliveryId, attempt: message.attempts }, error);
          message.retry({ delaySeconds: 30 * message.attempts });
        }
      }),
    ),
  );
}

export async function consumeWebhooksOutDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const deliveryId = parse(message, "webhooks-out-dlq");
      if (!deliveryId) return;
      try {
        await giveUpOnDelivery(env, deliveryId);
        message.ack();
      } catch (error) {
        log.error("webhooks-out-dlq: could not mark the delivery failed", { deliveryId }, error);
        message.retry({ delaySeconds: 60 });
      }
    });
  }
}
