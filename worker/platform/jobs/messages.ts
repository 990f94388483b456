// zod schemas for the queue message bodies; consumers parse every message with them before acting.
import { z } from "zod";
import type { AiVisibilityMessage, ClientReportsMessage, AuditStepMessage, CitationsMessage, ReviewsMessage, RankCheckMessage, GbpPostsMessage, MailOutMessage, ReportJobMessage, UsageEventMessage, WebhooksOutMessage } from "../env";

export const REPORT_JOBS_QUEUE = "report-jobs";
export const REPORT_JOBS_DLQ = "report-jobs-dlq";
export const USAGE_EVENTS_QUEUE = "usage-events";
export const USAGE_EVENTS_DLQ = "usage-events-dlq";
export const MAIL_OUT_QUEUE = "mail-out";
export const MAIL_OUT_DLQ = "mail-out-dlq";
export const GBP_POSTS_QUEUE = "gbp-posts";
export const GBP_POSTS_DLQ = "gbp-posts-dlq";

export const GbpPostsBody = z.object({ postIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<GbpPostsMessage>;
export const AUDITS_QUEUE = "audits";
export const AUDITS_DLQ = "audits-dlq";

export const AuditStepBody = z.object({
  auditId: z.string().min(1).max(100),
  step: z.enum(["find", "fetch", "speed", "rank"]),
}) satisfies z.ZodType<AuditStepMessage>;

export const RANK_CHECKS_QUEUE = "rank-checks";
export const RANK_CHECKS_DLQ = "rank-checks-dlq";
/**
 * Items (grid points or keyword checks) per rank-checks message: with max_batch_size 2, a batch makes at most 6 grid
 * searches at once (a Worker invocation's open connections). The schema takes up to 10, so messages sent under an
 * earlier setting still parse.
 */
export const RANK_ITEMS_PER_MESSAGE = 3;
const RANK_ITEMS_MAX = 10;

export const RankCheckBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("grid"), scanId: z.string().min(1).max(100), points: z.array(z.number().int().min(0).max(168)).min(1).max(RANK_ITEMS_MAX) }),
  z.object({ kind: z.literal("keyword"), checkIds: z.array(z.string().min(1).max(100)).min(1).max(RANK_ITEMS_MAX) }),
]) satisfies z.ZodType<RankCheckMessage>;
export const REVIEWS_QUEUE = "reviews";
export const REVIEWS_DLQ = "reviews-dlq";

const reviewIds = z.array(z.string().min(1).max(100)).min(1).max(10);
/** A few ids of one kind per message (see ReviewsMessage): sync businesses, publish replies, send requests. */
export const ReviewsBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sync"), userIds: reviewIds }),
  z.object({ kind: z.literal("publish"), reviewIds }),
  z.object({ kind: z.literal("send"), requestIds: reviewIds }),
]) satisfies z.ZodType<ReviewsMessage>;

export const WEBHOOKS_OUT_QUEUE = "webhooks-out";
export const WEBHOOKS_OUT_DLQ = "webhooks-out-dlq";

export const WebhooksOutBody = z.object({ deliveryId: z.string().min(1).max(100) }) satisfies z.ZodType<WebhooksOutMessage>;

export const MailOutBody = z.object({ mailId: z.string().min(1).max(100) }) satisfies z.ZodType<MailOutMessage>;

export const ReportJobBody = z.object({ reportId: z.string().min(1).max(100) }) satisfies z.ZodType<ReportJobMessage>;

const count = z.number().int().nonnegative().max(10_000_000);

export const UsageEventBody = z.object({
  event_id: z.string().min(1).max(100),
  user_id: z.string().max(100).nullable(),
  tool_name: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  estimated_cost: z.number().nonnegative().finite(),
  request_data: z.string().nullable(),
  response_data: z.string().nullable(),
  created_at: z.string().min(1).max(40),
  tokens_estimated: z.boolean().optional(),
}) satisfies z.ZodType<UsageEventMessage>;

export const CITATIONS_QUEUE = "citations";
export const CITATIONS_DLQ = "citations-dlq";

/** A few sources of one citation scan (3 are sent; the schema takes up to 10). */
export const CitationsBody = z.object({ scanId: z.string().min(1).max(100), sources: z.array(z.string().min(1).max(40)).min(1).max(10) }) satisfies z.ZodType<CitationsMessage>;

export const AI_VISIBILITY_QUEUE = "ai-visibility";
export const AI_VISIBILITY_DLQ = "ai-visibility-dlq";

/** A few answers of one AI Visibility scan (3 are sent; the schema takes up to 10). */
export const AiVisibilityBody = z.object({ scanId: z.string().min(1).max(100), answerIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<AiVisibilityMessage>;

export const CLIENT_REPORTS_QUEUE = "client-reports";
export const CLIENT_REPORTS_DLQ = "client-reports-dlq";

/** A few reports to build (3 are sent; the schema takes up to 10). */
export const ClientReportsBody = z.object({ reportIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<ClientReportsMessage>;
