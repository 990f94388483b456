// report-jobs queue (and its dead-letter queue): each message is parsed, processed and acked or retried on its own.
import { z } from "zod";
import type { ReportJobMessage } from "../../platform/env";
import { jobQueue } from "../../platform/jobs/consumer";
import { log } from "../../platform/log";
import { retryDelaySeconds } from "./config";
import { announce } from "../../platform/events";
import { processReportJob, saveTemplateForDeadLetter } from "./generate";

export const REPORT_JOBS_QUEUE = "report-jobs";

export const ReportJobBody = z.object({ reportId: z.string().min(1).max(100) }) satisfies z.ZodType<ReportJobMessage>;

/** Messages of one batch run side by side; the claim keeps duplicates from doing the work twice. */
export const reportJobsQueues = jobQueue({
  queue: REPORT_JOBS_QUEUE,
  body: ReportJobBody,
  fields: ({ reportId }) => ({ reportId }),
  consumer: {
    handle: async (env, { reportId }, attempts) => {
      const outcome = await processReportJob(env, reportId, attempts);
      // Sent again with a delay rather than retried: waiting for the audit uses up no try.
      if (outcome.kind === "wait") await env.REPORT_JOBS.send({ reportId }, { delaySeconds: outcome.delaySeconds });
      // Told once the report is ready (a widget lead's visitor gets the shared link; the cron is the net).
      if (outcome.kind === "ready") await announce("report.ready", { env, reportId }).catch((error: unknown) => log.error("report-jobs: a reaction to the ready report failed", { reportId }, error));
      return outcome.kind === "retry" ? { kind: "retry", delaySeconds: outcome.delaySeconds } : undefined;
    },
    retryDelay: (attempts, env) => retryDelaySeconds(env, attempts),
    retrying: "generation failed; retrying",
  },
  /** Whatever reaches the dead-letter queue gets template content, so no report is left without any. */
  deadLetters: {
    handle: async (env, { reportId }, attempts) => {
      const saved = await saveTemplateForDeadLetter(env, reportId, attempts);
      log.warn("report-jobs-dlq: dead-lettered report", { reportId, deliveries: attempts, templateSaved: saved });
    },
    failure: "could not save template content",
    done: undefined,
  },
});
