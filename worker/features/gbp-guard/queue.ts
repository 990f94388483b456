// gbp-guard queue (and its dead-letter queue): a few watched locations per message, each claimed once (compare-and-set)
// and checked against Google one after another. A location Google did not answer is given back and its message
// retried; dead-lettered ones show "could not be checked", never "no changes".
import { z } from "zod";
import type { GbpGuardMessage } from "../../platform/env";
import { doubling, jobQueue } from "../../platform/jobs/consumer";
import { failGuardChecksForDeadLetter, processGuardChecks } from "./check";

export const GBP_GUARD_QUEUE = "gbp-guard";

export const GbpGuardBody = z.object({ locationIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<GbpGuardMessage>;

export const gbpGuardQueues = jobQueue({
  queue: GBP_GUARD_QUEUE,
  body: GbpGuardBody,
  fields: (b) => ({ locations: b.locationIds.length }),
  consumer: {
    handle: (env, { locationIds }, attempts) => processGuardChecks(env, locationIds, attempts),
    retryDelay: doubling(30, 600),
    retrying: "Google did not answer; retrying",
  },
  deadLetters: {
    handle: (env, { locationIds }) => failGuardChecksForDeadLetter(env, locationIds),
  },
});
