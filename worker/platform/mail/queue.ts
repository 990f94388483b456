// mail-out consumer and its dead-letter queue: each message delivered on its own, retried with backoff, a permanent refusal recorded and acked.
import { deliverQueuedMail, giveUpOnMail, mailRetryDelaySeconds } from "./deliver";
import type { Env } from "../env";
import { log, withRequestId } from "../log";
import { MailOutBody } from "../jobs/messages";

function parse(message: Message<unknown>, queue: string): string | null {
  const parsed = MailOutBody.safeParse(message.body);
  if (parsed.success) return parsed.data.mailId;
  log.warn(`${queue}: dropping a malformed message`, { issue: parsed.error.issues[0]?.message });
  message.ack();
  return null;
}

export async function consumeMailOut(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const mailId = parse(message, "mail-out");
        if (!mailId) return;
        try {
          const outcome = await deliverQueuedMail(env, mailId);
          if (outcome.kind === "retry") {
            const delaySeconds = mailRetryDelaySeconds(message.attempts);
            log.warn("mail-out: delivery failed; retrying", { mailId, attempt: message.attempts, delaySeconds, reason: outcome.reason });
            message.retry({ delaySeconds });
          } else {
            message.ack();
          }
        } catch (error) {
          log.error("mail-out: unexpected failure", { mailId, attempt: message.attempts }, error);
          message.retry({ delaySeconds: mailRetryDelaySeconds(message.attempts) });
        }
      }),
    ),
  );
}

/** Delay between two deliveries of a dead-lettered message. */
export const MAIL_DLQ_RETRY_SECONDS = 600;
/** Must equal `max_retries` of the `mail-out-dlq` consumer in wrangler.toml (a test checks). */
export const MAIL_DLQ_MAX_RETRIES = 12;

/** Slower tries for what mail-out could not send; after the last one the message is marked failed. */
export async function consumeMailOutDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const mailId = parse(message, "mail-out-dlq");
      if (!mailId) return;
      try {
        const outcome = await deliverQueuedMail(env, mailId);
        if (outcome.kind !== "retry") return message.ack();
        if (message.attempts > MAIL_DLQ_MAX_RETRIES) {
          await giveUpOnMail(env, mailId, outcome.reason);
          log.error("mail-out-dlq: mail not delivered", { mailId, reason: outcome.reason });
          return message.ack();
        }
        message.retry({ delaySeconds: MAIL_DLQ_RETRY_SECONDS });
      } catch (error) {
        log.error("mail-out-dlq: unexpected failure", { mailId }, error);
        message.retry({ delaySeconds: MAIL_DLQ_RETRY_SECONDS });
      }
    });
  }
}
