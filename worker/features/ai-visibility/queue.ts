// ai-visibility consumer (and its dead-letter queue): a few answers of one AI Visibility scan per message; the answers
// of a message are asked side by side, each message acked or retried on its own (claims keep answers single).
import type { Env } from "../../platform/env";
import { failAiAnswersForDeadLetter, processAiAnswers } from "./scan";
import { aiRetryDelaySeconds } from "./config";
import { log, withRequestId } from "../../platform/log";
import { AiVisibilityBody } from "../../platform/jobs/messages";

export async function consumeAiVisibility(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = AiVisibilityBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("ai-visibility: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        const { scanId, answerIds } = parsed.data;
        try {
          const outcome = await processAiAnswers(env, scanId, answerIds, message.attempts);
          if (outcome.kind === "retry") {
            log.warn("ai-visibility: an engine failed; retrying", { attempt: message.attempts, delaySeconds: outcome.delaySeconds, reason: outcome.reason });
            message.retry({ delaySeconds: outcome.delaySeconds });
          } else {
            message.ack();
          }
        } catch (error) {
          log.error("ai-visibility: unexpected failure", { attempt: message.attempts }, error);
          message.retry({ delaySeconds: aiRetryDelaySeconds(message.attempts) });
        }
      }),
    ),
  );
}

/** Answers that reached the dead-letter queue are stored failed with the reason, so a scan always finishes. */
export async function consumeAiVisibilityDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = AiVisibilityBody.safeParse(message.body);
      if (!parsed.success) {
        message.ack();
        return;
      }
      try {
        await failAiAnswersForDeadLetter(env, parsed.data.scanId, parsed.data.answerIds, message.attempts);
        log.warn("ai-visibility-dlq: dead-lettered", { deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error("ai-visibility-dlq: could not mark failed", {}, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
