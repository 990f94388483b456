// reviews consumer (and its dead-letter queue), issue 28: each message carries a few ids of one kind; the inbox jobs
// (sync, publish) live in worker/features/reviews/inbox-jobs.ts and the review-request job (send) in worker/features/review-requests/request-jobs.ts.
// Each job claims its items in D1 (compare-and-set), so a redelivered message does nothing twice.
import type { Env } from "../../platform/env";
import { failReviewsForDeadLetter, processReviewPublish, processReviewSync } from "./inbox-jobs";
import { failReviewRequestsForDeadLetter, processReviewRequestSend } from "../review-requests";
import { log, withRequestId } from "../../platform/log";
import { ReviewsBody } from "../../platform/jobs/messages";

/** Retry delay: 30 s doubling, at most 15 minutes. */
export function reviewsRetryDelaySeconds(attempts: number): number {
  return Math.min(900, 30 * 2 ** Math.max(0, attempts - 1));
}

export async function consumeReviews(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = ReviewsBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("reviews: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        const body = parsed.data;
        try {
          const outcome =
            body.kind === "sync"
              ? await processReviewSync(env, body.userIds, message.attempts)
              : body.kind === "publish"
                ? await processReviewPublish(env, body.reviewIds, message.attempts)
                : await processReviewRequestSend(env, body.requestIds, message.attempts);
          if (outcome.kind === "retry") {
            log.warn("reviews: retrying", { kind: body.kind, attempt: message.attempts, reason: outcome.reason });
            message.retry({ delaySeconds: reviewsRetryDelaySeconds(message.attempts) });
          } else {
            message.ack();
          }
        } catch (error) {
          log.error("reviews: unexpected failure", { kind: body.kind, attempt: message.attempts }, error);
          message.retry({ delaySeconds: reviewsRetryDelaySeconds(message.attempts) });
        }
      }),
    ),
  );
}

/** Items that reached the dead-letter queue are marked failed with the reason, so nothing waits forever. */
export async function consumeReviewsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = ReviewsBody.safeParse(message.body);
      if (!parsed.success) {
        message.ack();
        return;
      }
      const body = parsed.data;
      try {
        if (body.kind === "send") await failReviewRequestsForDeadLetter(env, body.requestIds, message.attempts);
        else await failReviewsForDeadLetter(env, body, message.attempts);
        log.warn("reviews-dlq: dead-lettered", { kind: body.kind, deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error("reviews-dlq: could not mark failed", { kind: body.kind }, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
