// Routes each queue batch to its consumer: one line per queue of wrangler.toml, each consumer declared by its capability.
import type { Env } from "./platform/env";
import type { QueueConsumer } from "./platform/jobs/consumer";
import { mailOutConsumer, mailOutDeadLetters } from "./platform/mail/queue";
import { usageEventsConsumer, usageEventsDeadLetters } from "./platform/metering/usage-queue";
import { webhooksOutConsumer, webhooksOutDeadLetters } from "./platform/notifications/webhooks-queue";
import { aiVisibilityConsumer, aiVisibilityDeadLetters } from "./features/ai-visibility";
import { auditsConsumer, auditsDeadLetters } from "./features/audits";
import { citationsConsumer, citationsDeadLetters } from "./features/citations";
import { clientReportsConsumer, clientReportsDeadLetters } from "./features/client-reports";
import { gbpPostsConsumer, gbpPostsDeadLetters } from "./features/content";
import { rankChecksConsumer, rankChecksDeadLetters } from "./features/rank";
import { reportJobsConsumer, reportJobsDeadLetters } from "./features/reports";
import { reviewsConsumer, reviewsDeadLetters } from "./features/reviews";

const consumers: Record<string, QueueConsumer> = {
  "report-jobs": reportJobsConsumer,
  "report-jobs-dlq": reportJobsDeadLetters,
  "usage-events": usageEventsConsumer,
  "usage-events-dlq": usageEventsDeadLetters,
  "mail-out": mailOutConsumer,
  "mail-out-dlq": mailOutDeadLetters,
  "gbp-posts": gbpPostsConsumer,
  "gbp-posts-dlq": gbpPostsDeadLetters,
  audits: auditsConsumer,
  "audits-dlq": auditsDeadLetters,
  "rank-checks": rankChecksConsumer,
  "rank-checks-dlq": rankChecksDeadLetters,
  citations: citationsConsumer,
  "citations-dlq": citationsDeadLetters,
  reviews: reviewsConsumer,
  "reviews-dlq": reviewsDeadLetters,
  "ai-visibility": aiVisibilityConsumer,
  "ai-visibility-dlq": aiVisibilityDeadLetters,
  "client-reports": clientReportsConsumer,
  "client-reports-dlq": clientReportsDeadLetters,
  "webhooks-out": webhooksOutConsumer,
  "webhooks-out-dlq": webhooksOutDeadLetters,
};

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  void ctx;
  const consume = Object.hasOwn(consumers, batch.queue) ? consumers[batch.queue] : undefined;
  // Unknown queue: retry so nothing is lost while a consumer is being deployed.
  if (!consume) return batch.retryAll();
  return consume(batch, env);
}
