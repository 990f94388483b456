// client-reports queue (and its dead-letter queue, issue 30): a few monthly reports per message, built one after
// another (each claimed by compare-and-set, so a redelivered message builds nothing twice), each mailed once when ready.
import { z } from "zod";
import type { ClientReportsMessage } from "../../platform/env";
import { doubling, jobQueue } from "../../platform/jobs/consumer";
import { buildClientReports, failClientReportsForDeadLetter } from "./run";

export const CLIENT_REPORTS_QUEUE = "client-reports";

/** A few reports to build (3 are sent; the schema takes up to 10). */
export const ClientReportsBody = z.object({ reportIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<ClientReportsMessage>;

/** A message with a report that failed is retried (30 s doubling); one that failed unexpectedly, after 30 s. */
export const clientReportsQueues = jobQueue({
  queue: CLIENT_REPORTS_QUEUE,
  body: ClientReportsBody,
  consumer: {
    handle: async (env, { reportIds }, attempts) => ((await buildClientReports(env, reportIds)) > 0 ? { kind: "retry", delaySeconds: doubling(30)(attempts) } : undefined),
    retryDelay: () => 30,
  },
  /** Reports that reached the dead-letter queue are marked failed with the reason (the admin's screen shows it). */
  deadLetters: {
    handle: (env, { reportIds }) => failClientReportsForDeadLetter(env, reportIds),
  },
});
