// mail-out queue and its dead-letter queue: each message delivered on its own, retried with backoff, a permanent refusal recorded and acked.
import { z } from "zod";
import { deliverQueuedMail, giveUpOnMail, mailRetryDelaySeconds } from "./deliver";
import type { MailOutMessage } from "../env";
import { consumer, deadLetters } from "../jobs/consumer";
import { log } from "../log";

export const MAIL_OUT_QUEUE = "mail-out";
export const MAIL_OUT_DLQ = "mail-out-dlq";

export const MailOutBody = z.object({ mailId: z.string().min(1).max(100) }) satisfies z.ZodType<MailOutMessage>;

export const mailOutConsumer = consumer({
  queue: MAIL_OUT_QUEUE,
  body: MailOutBody,
  handle: (env, { mailId }) => deliverQueuedMail(env, mailId),
  retryDelay: mailRetryDelaySeconds,
  fields: ({ mailId }) => ({ mailId }),
  retrying: "delivery failed; retrying",
});

/** Delay between two deliveries of a dead-lettered message. */
export const MAIL_DLQ_RETRY_SECONDS = 600;
/** Must equal `max_retries` of the `mail-out-dlq` consumer in wrangler.toml (a test checks). */
export const MAIL_DLQ_MAX_RETRIES = 12;

/** Slower tries for what mail-out could not send; after the last one the message is marked failed. */
export const mailOutDeadLetters = deadLetters({
  queue: MAIL_OUT_DLQ,
  body: MailOutBody,
  handle: async (env, { mailId }, attempts) => {
    const outcome = await deliverQueuedMail(env, mailId);
    if (outcome.kind !== "retry") return;
    if (attempts <= MAIL_DLQ_MAX_RETRIES) return { kind: "retry", delaySeconds: MAIL_DLQ_RETRY_SECONDS };
    await giveUpOnMail(env, mailId, outcome.reason);
    log.error("mail-out-dlq: mail not delivered", { mailId, reason: outcome.reason });
  },
  retryDelay: () => MAIL_DLQ_RETRY_SECONDS,
  fields: ({ mailId }) => ({ mailId }),
  failure: "unexpected failure",
  done: undefined,
});
