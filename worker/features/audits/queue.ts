// audits consumer (and its dead-letter queue): one step of one audit per message, each acked or retried on its own.
import type { Env } from "../../platform/env";
import { failStepForDeadLetter, processAuditStep } from "./run";
import { stepRetryDelaySeconds } from "./config";
import { log, withRequestId } from "../../platform/log";
import { AuditStepBody } from "../../platform/jobs/messages";

export async function consumeAudits(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // Steps of one batch run side by side (a slow page-speed call does not hold up the others); claims keep duplicates out.
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = AuditStepBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("audits: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        const { auditId, step } = parsed.data;
        try {
          const outcome = await processAuditStep(env, auditId, step, message.attempts);
          if (outcome.kind === "retry") {
            log.warn("audits: provider failed; retrying", { auditId, step, attempt: message.attempts, delaySeconds: outcome.delaySeconds, reason: outcome.reason });
            message.retry({ delaySeconds: outcome.delaySeconds });
          } else {
            message.ack();
          }
        } catch (error) {
          log.error("audits: unexpected failure", { auditId, step, attempt: message.attempts }, error);
          message.retry({ delaySeconds: stepRetryDelaySeconds(message.attempts) });
        }
      }),
    ),
  );
}

/** Steps that reached the dead-letter queue are failed with the reason, so the audit finishes and says what it missed. */
export async function consumeAuditsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = AuditStepBody.safeParse(message.body);
      if (!parsed.success) {
        message.ack();
        return;
      }
      try {
        await failStepForDeadLetter(env, parsed.data.auditId, parsed.data.step, message.attempts);
        log.warn("audits-dlq: dead-lettered step", { ...parsed.data, deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error("audits-dlq: could not mark the step failed", parsed.data, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
