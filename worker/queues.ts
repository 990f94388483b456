// Routes each queue batch to its consumer by queue name.
import type { Env } from "./platform/env";
import { AI_VISIBILITY_DLQ, AI_VISIBILITY_QUEUE, CLIENT_REPORTS_DLQ, CLIENT_REPORTS_QUEUE, REVIEWS_DLQ, REVIEWS_QUEUE, AUDITS_DLQ, AUDITS_QUEUE, CITATIONS_DLQ, CITATIONS_QUEUE, RANK_CHECKS_DLQ, RANK_CHECKS_QUEUE, GBP_POSTS_DLQ, GBP_POSTS_QUEUE, MAIL_OUT_DLQ, MAIL_OUT_QUEUE, REPORT_JOBS_DLQ, REPORT_JOBS_QUEUE, USAGE_EVENTS_DLQ, USAGE_EVENTS_QUEUE, WEBHOOKS_OUT_DLQ, WEBHOOKS_OUT_QUEUE } from "./platform/jobs/messages";
import { consumeAudits, consumeAuditsDeadLetter } from "./features/audits/queue";
import { consumeCitations, consumeCitationsDeadLetter } from "./features/citations/queue";
import { consumeAiVisibility, consumeAiVisibilityDeadLetter } from "./features/ai-visibility/queue";
import { consumeClientReports, consumeClientReportsDeadLetter } from "./features/client-reports/queue";
import { consumeReviews, consumeReviewsDeadLetter } from "./features/reviews/queue";
import { consumeRankChecks, consumeRankChecksDeadLetter } from "./features/rank/queue";
import { consumeMailOut, consumeMailOutDeadLetter } from "./platform/mail/queue";
import { consumeGbpPosts, consumeGbpPostsDeadLetter } from "./features/content/queue";
import { consumeReportJobs, consumeReportJobsDeadLetter } from "./features/reports/queue";
import { consumeUsageEvents, consumeUsageEventsDeadLetter } from "./platform/metering/usage-queue";
import { consumeWebhooksOut, consumeWebhooksOutDeadLetter } from "./platform/notifications/webhooks-queue";

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  void ctx;
  switch (batch.queue) {
    case REPORT_JOBS_QUEUE:
      return consumeReportJobs(batch, env);
    case REPORT_JOBS_DLQ:
      return consumeReportJobsDeadLetter(batch, env);
    case USAGE_EVENTS_QUEUE:
      return consumeUsageEvents(batch, env);
    case USAGE_EVENTS_DLQ:
      return consumeUsageEventsDeadLetter(batch, env);
    case MAIL_OUT_QUEUE:
      return consumeMailOut(batch, env);
    case MAIL_OUT_DLQ:
      return consumeMailOutDeadLetter(batch, env);
    case GBP_POSTS_QUEUE:
      return consumeGbpPosts(batch, env);
    case GBP_POSTS_DLQ:
      return consumeGbpPostsDeadLetter(batch, env);
    case AUDITS_QUEUE:
      return consumeAudits(batch, env);
    case AUDITS_DLQ:
      return consumeAuditsDeadLetter(batch, env);
    case RANK_CHECKS_QUEUE:
      return consumeRankChecks(batch, env);
    case RANK_CHECKS_DLQ:
      return consumeRankChecksDeadLetter(batch, env);
    case CITATIONS_QUEUE:
      return consumeCitations(batch, env);
    case CITATIONS_DLQ:
      return consumeCitationsDeadLetter(batch, env);
    case REVIEWS_QUEUE:
      return consumeReviews(batch, env);
    case REVIEWS_DLQ:
      return consumeReviewsDeadLetter(batch, env);
    case AI_VISIBILITY_QUEUE:
      return consumeAiVisibility(batch, env);
    case AI_VISIBILITY_DLQ:
      return consumeAiVisibilityDeadLetter(batch, env);
    case CLIENT_REPORTS_QUEUE:
      return consumeClientReports(batch, env);
    case CLIENT_REPORTS_DLQ:
      return consumeClientReportsDeadLetter(batch, env);
    case WEBHOOKS_OUT_QUEUE:
      return consumeWebhooksOut(batch, env);
    case WEBHOOKS_OUT_DLQ:
      return consumeWebhooksOutDeadLetter(batch, env);
    default:
      // Unknown queue: retry so nothing is lost while a consumer is being deployed.
      batch.retryAll();
  }
}
