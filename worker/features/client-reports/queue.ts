// client-reports consumer (and its dead-letter queue, issue 30): a few monthly reports per message, built one after
// another (each claimed by compare-and-set, so a redelivered message builds nothing twice), each mailed once when ready.
import type { Env } from "../../platform/env";
import { buildClientReports, failClientReportsForDeadLetter } from "./run";
import { log, withRequestId } from "../../platform/log";
import { ClientReportsBody } from "../../platform/jobs/messages";

export async function consumeClientReports(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = ClientReportsBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("client-reports: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        try {
          const failed = await buildClientReports(env, parsed.data.reportIds);
          if (failed > 0) message.retry({ delaySeconds: 30 * 2 ** Math.max(0, message.attempts - 1) });
          else message.ack();
        } catch (error) {
          log.error("client-reports: unexpected failure", { attempt: message.attempts }, error);
          message.retry({ delaySeconds: 30 });
        }
      }),
    ),
  );
}

/** Reports that reached the dead-letter queue are marked failed with the reason (the admin's screen shows it). */
export async function consumeClientReportsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = ClientReportsBody.safeParse(message.body);
      if (!parsed.success) {
        message.ack();
        return;
      }
      try {
        await failClientReportsForDeadLetter(env, parsed.data.reportIds);
        log.warn("client-reports-dlq: dead-lettered", { deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error("client-reports-dlq: could not mark failed", {}, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
