// Worker entry: HTTP through the Hono app, queue batches to their consumers, the cron sweep.
import { sweepAlertsAndWebhooks } from "./platform/notifications/webhooks";
import { handleQueue } from "./queues";
import app from "./app";
import type { Env } from "./platform/env";
import { sweepStaleReports } from "./features/reports/generate";
import { sweepReservations } from "./platform/metering/meter";
import { getDb } from "./platform/db/client";
import { deleteExpiredWindows } from "./platform/db/rate-limits";
import { sweepDuePosts } from "./features/content/gbp-publish";
import { sweepStaleAudits } from "./features/audits/run";
import { sweepRank } from "./features/rank/tracker";
import { sweepWidgetLeads } from "./features/widgets/leads";
import { sweepCitations } from "./features/citations/scan";
import { sweepAiVisibility } from "./features/ai-visibility/tracking";
import { sweepReviews } from "./features/reviews/inbox";
import { sweepReviewRequests } from "./features/review-requests/request-jobs";
import { sweepClientReports } from "./features/client-reports/run";

export default {
  fetch: app.fetch,
  queue: handleQueue,
  // wrangler.toml's cron (every 5 minutes): re-queue reports whose generation went stale, give back meter
  // reservations of calls whose worker died, delete rate-limit windows that are over, put due Google Business
  // Profile posts on gbp-posts (or remind their owners), send unfinished audit steps again, and for rank tracking:
  // enqueue due tracked keywords (once per period), send stale grid points and checks again, mail the alert digests;
  // start widget leads that waited for their owner's allowance (and mail a ready report's visitor the consumer missed);
  // mail the lead alerts' digests that are due and queue webhook deliveries whose message was lost; re-scan tracked
  // businesses' citations monthly and send lost citation messages again; read connected businesses' Google reviews every
  // 6 hours (reviews queue), queue due auto-published replies and take back stale publish claims; put due review requests and reminders on the reviews queue;
  // re-ask tracked AI Visibility questions weekly and send its lost messages again; on the 1st in each switched-on
  // client's zone, create and queue last month's client report once (and send lost ones again).
  async scheduled(_controller, env, _ctx) {
    await Promise.all([
      sweepStaleReports(env),
      sweepReservations(env),
      deleteExpiredWindows(getDb(env)),
      sweepDuePosts(env),
      sweepStaleAudits(env),
      sweepRank(env),
      sweepWidgetLeads(env),
      sweepAlertsAndWebhooks(env),
      sweepCitations(env),
      sweepReviews(env),
      sweepReviewRequests(env),
      sweepAiVisibility(env),
      sweepClientReports(env),
    ]);
  },
} satisfies ExportedHandler<Env>;
