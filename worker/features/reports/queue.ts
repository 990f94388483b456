// report-jobs consumer (and its dead-letter queue): each message is parsed, processed and acked or retried on its own.
import type { Env } from "../../platform/env";
import { retryDelaySeconds } from "./config";
import { announce } from "../../platform/events";
import { processReportJob, saveTemplateForDeadLetter } from "./generate";
import { log, withRequestId } from "../../platform/log";
import { ReportJobBody } from "../../platform/jobs/messages";

export async function consumeReportJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // Messages of one batch run side by side; the claim keeps duplicates from doing the work twice.
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = ReportJobBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("report-jobs: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        const reportId = parsed.data.reportId;
        try {
          const outcome = await processReportJob(env, reportId, message.attempts);
          if (outcome.kind === "wait") {
            // Sent again with a delay rather than retried: waiting for the audit uses up no try.
            await env.REPORT_JOBS.send({ reportId }, { delaySeconds: outcome.delaySeconds });
            message.ack();
          } else if (outcome.kind === "retry") {
            log.warn("report-jobs: generation failed; retrying", { reportId, attempt: message.attempts, delaySeconds: outcome.delaySeconds });
            message.retry({ delaySeconds: outcome.delaySeconds });
          } else {
            // Told once the report is ready (a widget lead's visitor gets the shared link; the cron is the net).
            if (outcome.kind === "ready") await announce("report.ready", { env, reportId }).catch((error: unknown) => log.error("report-jobs: a reaction to the ready report failed", { reportId }, error));
            message.ack();
          }
        } catch (error) {
          log.error("report-jobs: unexpected failure", { reportId, attempt: message.attempts }, error);
          message.retry({ delaySeconds: retryDelaySeconds(env, message.attempts) });
        }
      }),
    ),
  );
}

/** Whatever reaches the dead-letter queue gets template content, so no report is left without any. */
export async function consumeReportJobsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = ReportJobBody.safeParse(message.body);
      if (!parsed.success) {
        log.warn("report-jobs-dlq: dropping a malformed message", { queue: batch.queue });
        message.ack();
        return;
      }
      const reportId = parsed.data.reportId;
      try {
        const saved = await saveTemplateForDeadLetter(env, reportId, message.attempts);
        log.warn("report-jobs-dlq: dead-lettered report", { reportId, deliveries: message.attempts, templateSaved: saved });
        message.ack();
      } catch (error) {
        log.error("report-jobs-dlq: could not save template content", { reportId }, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
