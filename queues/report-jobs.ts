// report-jobs consumer (and its dead-letter queue): each message is parsed, processed and acked or retried on its own.
import type { Env } from "../worker/env";
import { retryDelaySeconds } from "../worker/reports/config";
import { processReportJob, saveTemplateForDeadLetter } from "../worker/reports/generate";
import { ReportJobBody } from "./messages";

export async function consumeReportJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // Messages of one batch run side by side; the claim keeps duplicates from doing the work twice.
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = ReportJobBody.safeParse(message.body);
      if (!parsed.success) {
        console.warn("report-jobs: dropping a malformed message", message.id, JSON.stringify(message.body)?.slice(0, 200));
        message.ack();
        return;
      }
      try {
        const outcome = await processReportJob(env, parsed.data.reportId, message.attempts);
        if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
        else message.ack();
      } catch (error) {
        console.error("report-jobs: unexpected failure", parsed.data.reportId, error);
        message.retry({ delaySeconds: retryDelaySeconds(env, message.attempts) });
      }
    }),
  );
}

/** Whatever reaches the dead-letter queue gets template content, so no report is left without any. */
export async function consumeReportJobsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ReportJobBody.safeParse(message.body);
    if (!parsed.success) {
      message.ack();
      continue;
    }
    try {
      await saveTemplateForDeadLetter(env, parsed.data.reportId, message.attempts);
      message.ack();
    } catch (error) {
      console.error("report-jobs-dlq: could not save template content", parsed.data.reportId, error);
      message.retry({ delaySeconds: 30 });
    }
  }
}
