// The consumer factory of the job engine: every queue consumer (and dead-letter consumer) is a declaration of its
// message schema, the work for one message and its retry delays; the batch handling, per-message ack and retry, the
// dropping of malformed messages and the logging are written once here.
import type { z } from "zod";
import type { Env } from "../env";
import { log, withRequestId, type LogFields } from "../log";

/** A consumer as the queue dispatch calls it. */
export type QueueConsumer = (batch: MessageBatch<unknown>, env: Env) => Promise<void>;

/** What one message's work answers: a `retry` (after its delay, or the consumer's), or anything else: done, acked. */
export type JobOutcome = void | { kind: string; delaySeconds?: number; reason?: string };

export type ConsumerDeclaration<B> = {
  /** The queue's name (wrangler.toml), the prefix of its log lines. */
  queue: string;
  /** Every message is parsed with it; a malformed one is logged and acked (retrying would never make it valid). */
  body: z.ZodType<B>;
  /** One message's work (`attempts` = its delivery, 1-based). */
  handle: (env: Env, body: B, attempts: number) => Promise<JobOutcome>;
  /** Seconds before the next delivery: after an unexpected failure, or a retry outcome that names no delay. */
  retryDelay: (attempts: number, env: Env) => number;
  /** The messages of a batch one after another (default: side by side; claims keep duplicates out). */
  oneByOne?: boolean;
  /** The facts of a message its log lines carry (ids, a kind). */
  fields?: (body: B) => LogFields;
  /** The warning logged with a retry outcome ("a search failed; retrying"); without it the retry is not logged. */
  retrying?: string;
  /** The warning logged when the work is done (a dead letter marked failed: "dead-lettered"). */
  done?: string;
  /** The error logged when the work throws (default "unexpected failure"). */
  failure?: string;
};

/** The body of a message, or null when it is malformed (then logged and acked). */
function parse<B>(queue: string, schema: z.ZodType<B>, message: Message<unknown>): B | null {
  const parsed = schema.safeParse(message.body);
  if (parsed.success) return parsed.data;
  log.warn(`${queue}: dropping a malformed message`, { queue, issue: parsed.error.issues[0]?.message });
  message.ack();
  return null;
}

/** A consumer from its declaration: each message parsed, handled, and acked or retried on its own. */
export function consumer<B>(d: ConsumerDeclaration<B>): QueueConsumer {
  const one = (env: Env, message: Message<unknown>) =>
    withRequestId(message.id, async () => {
      const body = parse(d.queue, d.body, message);
      if (body === null) return;
      const fields = d.fields?.(body) ?? {};
      try {
        const outcome = await d.handle(env, body, message.attempts);
        if (outcome?.kind === "retry") {
          const delaySeconds = outcome.delaySeconds ?? d.retryDelay(message.attempts, env);
          if (d.retrying) log.warn(`${d.queue}: ${d.retrying}`, { ...fields, attempt: message.attempts, delaySeconds, reason: outcome.reason });
          message.retry({ delaySeconds });
          return;
        }
        if (d.done) log.warn(`${d.queue}: ${d.done}`, { ...fields, deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error(`${d.queue}: ${d.failure ?? "unexpected failure"}`, { ...fields, attempt: message.attempts }, error);
        message.retry({ delaySeconds: d.retryDelay(message.attempts, env) });
      }
    });
  return async (batch, env) => {
    if (d.oneByOne) {
      for (const message of batch.messages) await one(env, message);
    } else {
      await Promise.all(batch.messages.map((message) => one(env, message)));
    }
  };
}

/** A dead-letter consumer's declaration: its retry delay is optional. */
export type DeadLetterDeclaration<B> = Omit<ConsumerDeclaration<B>, "retryDelay"> & Partial<Pick<ConsumerDeclaration<B>, "retryDelay">>;

/**
 * A dead-letter queue's consumer: its work marks what never succeeded failed (with the reason), so nothing waits
 * forever. By default one message after another, 30 s before a retry, "dead-lettered" logged when done.
 */
export function deadLetters<B>(d: DeadLetterDeclaration<B>): QueueConsumer {
  return consumer({ oneByOne: true, retryDelay: () => 30, done: "dead-lettered", failure: "could not mark failed", ...d });
}

/** What a queue's consumer and its dead-letter queue's share: the queue's name, the message schema, the log fields. */
type SharedByBoth = "queue" | "body" | "fields";

export type JobQueueDeclaration<B> = Pick<ConsumerDeclaration<B>, SharedByBoth> & {
  /** The queue's own work and delays. */
  consumer: Omit<ConsumerDeclaration<B>, SharedByBoth>;
  /** Its dead-letter queue's (`<queue>-dlq`), with the defaults of `deadLetters`. */
  deadLetters: Omit<DeadLetterDeclaration<B>, SharedByBoth>;
};

/**
 * A queue and its dead-letter queue (`<queue>-dlq`) declared once, by name as a capability's `queues` and the queue
 * dispatch take them.
 */
export function jobQueue<B>({ queue, body, fields, consumer: main, deadLetters: dead }: JobQueueDeclaration<B>): Record<string, QueueConsumer> {
  const dlq = `${queue}-dlq`;
  return { [queue]: consumer({ queue, body, fields, ...main }), [dlq]: deadLetters({ queue: dlq, body, fields, ...dead }) };
}

/** A valid message of a batch with its parsed body. */
export type Parsed<B> = { message: Message<unknown>; body: B };

export type BatchConsumerDeclaration<B> = {
  queue: string;
  body: z.ZodType<B>;
  /** The work for all valid messages of the batch at once, all or nothing (one insert, say). */
  handle: (env: Env, bodies: B[]) => Promise<void>;
  /** When the work threw: each valid message retried or acked (and the loss logged) by the declaration. */
  failed: (items: Parsed<B>[], error: unknown) => void;
};

/** A consumer whose batch is one piece of work: all valid messages acked together, or each handed to `failed`. */
export function batchConsumer<B>(d: BatchConsumerDeclaration<B>): QueueConsumer {
  return async (batch, env) => {
    const valid: Parsed<B>[] = [];
    for (const message of batch.messages) {
      const body = withRequestId(message.id, () => parse(d.queue, d.body, message));
      if (body !== null) valid.push({ message, body });
    }
    if (valid.length === 0) return;
    try {
      await d.handle(env, valid.map((v) => v.body));
      for (const v of valid) v.message.ack();
    } catch (error) {
      d.failed(valid, error);
    }
  };
}

/** The backoff most consumers use: `base` seconds doubling with each delivery, at most `max`. */
export function doubling(base: number, max = Infinity): (attempts: number) => number {
  return (attempts) => Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}
