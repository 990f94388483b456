// citations queue (and its dead-letter queue): a few sources of one citation scan per message; the sources of a
// message run side by side, each message acked or retried on its own (claims keep sources single).
import { z } from "zod";
import type { CitationsMessage } from "../../platform/env";
import { jobQueue } from "../../platform/jobs/consumer";
import { failCitationSourcesForDeadLetter, processCitationSources } from "./scan";
import { citationRetryDelaySeconds } from "./config";

export const CITATIONS_QUEUE = "citations";

/** A few sources of one citation scan (3 are sent; the schema takes up to 10). */
export const CitationsBody = z.object({ scanId: z.string().min(1).max(100), sources: z.array(z.string().min(1).max(40)).min(1).max(10) }) satisfies z.ZodType<CitationsMessage>;

export const citationsQueues = jobQueue({
  queue: CITATIONS_QUEUE,
  body: CitationsBody,
  consumer: {
    handle: (env, { scanId, sources }, attempts) => processCitationSources(env, scanId, sources, attempts),
    retryDelay: citationRetryDelaySeconds,
    retrying: "a search failed; retrying",
  },
  /** Sources that reached the dead-letter queue are stored unknown with the reason, so a scan always finishes. */
  deadLetters: {
    handle: (env, { scanId, sources }, attempts) => failCitationSourcesForDeadLetter(env, scanId, sources, attempts),
  },
});
