// mail-out queue and its dead-letter queue: each message delivered on its own, retried with backoff, a permanent refusal recorded and acked.
import { z } from "zod";
import { deliverQueuedMail, giveUpOnMail, mailRetryDelaySeconds } from "./deliver";
import type { MailOutMessage } from "../env";
import { jobQueue } from "../jobs/consumer";
import { log } from "../log";

export const MAIL_OUT_QUEUE = "mail-out";

export const MailOutBody = z.object({ mailId: z.string().min(1).max(100) }) satisfies z.ZodType<MailOutMessage>;

/** Delay between two deliveries of a dead-lettered message. */
export const MAIL_DLQ_RETRY_SECONDS = 600;
/** Must equal `max_retries` of the `mail-out-dlq` consumer in wrangler.toml (a test checks). */
export const MAIL_DLQ_MAX_RETRIES = 12;

export const mailOutQueues = jobQueue({
  queue: MAIL_OUT_QUEUE,
  body: MailOutBody,
  fields: ({ mailId }) => ({ mailId }),
  consumer: {
    handle: (env, { mailId }) => deliverQueuedMail(env, mailId),
    retryDelay: mailRetryDelaySeconds,
    retrying: "delivery failed; retrying",
  },
  /** Slower tries for what mail-out could not send; after the last one the message is marked failed. */
  deadLetters: {
    handle: async (env, { mailId }, attempts) => {
      const outcome = await deliverQueuedMail(env, mailId);
      if (outcome.kind !== "retry") return;
      if (attempts <= MAIL_DLQ_MAX_RETRIES) return { kind: "retry", delaySeconds: MAIL_DLQ_RETRY_SECONDS };
      await giveUpOnMail(env, mailId, outcome.reason);
      log.error("mail-out-dlq: mail not delivered", { mailId, reason: outcome.reason });
    },
    retryDelay: () => MAIL_DLQ_RETRY_SECONDS,
    failure: "unexpected failure",
    done: undefined,
  },
});
