// reviews queue (and its dead-letter queue), issue 28: each message carries a few ids of one kind; the inbox jobs
// (sync, publish) live in worker/features/reviews/inbox-jobs.ts and the review-request job (send) in worker/features/review-requests/request-jobs.ts.
// Each job claims its items in D1 (compare-and-set), so a redelivered message does nothing twice.
import { z } from "zod";
import type { ReviewsMessage } from "../../platform/env";
import { doubling, jobQueue } from "../../platform/jobs/consumer";
import { failReviewsForDeadLetter, processReviewPublish, processReviewSync } from "./inbox-jobs";
import { failReviewRequestsForDeadLetter, processReviewRequestSend } from "../review-requests";

export const REVIEWS_QUEUE = "reviews";

const reviewIds = z.array(z.string().min(1).max(100)).min(1).max(10);
/** A few ids of one kind per message (see ReviewsMessage): sync businesses, publish replies, send requests. */
export const ReviewsBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sync"), userIds: reviewIds }),
  z.object({ kind: z.literal("publish"), reviewIds }),
  z.object({ kind: z.literal("send"), requestIds: reviewIds }),
]) satisfies z.ZodType<ReviewsMessage>;

/** Retry delay: 30 s doubling, at most 15 minutes. */
export const reviewsRetryDelaySeconds = doubling(30, 900);

export const reviewsQueues = jobQueue({
  queue: REVIEWS_QUEUE,
  body: ReviewsBody,
  fields: ({ kind }) => ({ kind }),
  consumer: {
    handle: (env, body, attempts) =>
      body.kind === "sync"
        ? processReviewSync(env, body.userIds, attempts)
        : body.kind === "publish"
          ? processReviewPublish(env, body.reviewIds, attempts)
          : processReviewRequestSend(env, body.requestIds, attempts),
    retryDelay: reviewsRetryDelaySeconds,
    retrying: "retrying",
  },
  /** Items that reached the dead-letter queue are marked failed with the reason, so nothing waits forever. */
  deadLetters: {
    handle: (env, body, attempts) => (body.kind === "send" ? failReviewRequestsForDeadLetter(env, body.requestIds, attempts) : failReviewsForDeadLetter(env, body, attempts)),
  },
});
