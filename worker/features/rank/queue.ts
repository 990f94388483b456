// rank-checks queue (and its dead-letter queue): a few grid points of one scan, or a few tracked-keyword checks, per
// message; the items of a message run side by side, each message acked or retried on its own (claims keep items single).
import { z } from "zod";
import type { RankCheckMessage } from "../../platform/env";
import { jobQueue } from "../../platform/jobs/consumer";
import { failGridPointsForDeadLetter, processGridPoints } from "./grid";
import { failChecksForDeadLetter, processKeywordChecks } from "./tracker";
import { rankRetryDelaySeconds } from "./config";

export const RANK_CHECKS_QUEUE = "rank-checks";
/** The schema takes up to 10 items per message, so messages sent under an earlier setting still parse. */
const RANK_ITEMS_MAX = 10;

export const RankCheckBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("grid"), scanId: z.string().min(1).max(100), points: z.array(z.number().int().min(0).max(168)).min(1).max(RANK_ITEMS_MAX) }),
  z.object({ kind: z.literal("keyword"), checkIds: z.array(z.string().min(1).max(100)).min(1).max(RANK_ITEMS_MAX) }),
]) satisfies z.ZodType<RankCheckMessage>;

export const rankChecksQueues = jobQueue({
  queue: RANK_CHECKS_QUEUE,
  body: RankCheckBody,
  fields: ({ kind }) => ({ kind }),
  consumer: {
    handle: (env, body, attempts) => (body.kind === "grid" ? processGridPoints(env, body.scanId, body.points, attempts) : processKeywordChecks(env, body.checkIds, attempts)),
    retryDelay: rankRetryDelaySeconds,
    retrying: "a search failed; retrying",
  },
  /** Points and checks that reached the dead-letter queue are failed with the reason, so a scan always finishes. */
  deadLetters: {
    handle: (env, body, attempts) => (body.kind === "grid" ? failGridPointsForDeadLetter(env, body.scanId, body.points, attempts) : failChecksForDeadLetter(env, body.checkIds, attempts)),
  },
});
