// audits queue (and its dead-letter queue): one step of one audit per message, each acked or retried on its own.
import { z } from "zod";
import type { AuditStepMessage } from "../../platform/env";
import { jobQueue } from "../../platform/jobs/consumer";
import { failStepForDeadLetter, processAuditStep } from "./run";
import { stepRetryDelaySeconds } from "./config";

export const AUDITS_QUEUE = "audits";

export const AuditStepBody = z.object({
  auditId: z.string().min(1).max(100),
  step: z.enum(["find", "fetch", "speed", "rank"]),
}) satisfies z.ZodType<AuditStepMessage>;

/** Steps of one batch run side by side (a slow page-speed call does not hold up the others); claims keep duplicates out. */
export const auditsQueues = jobQueue({
  queue: AUDITS_QUEUE,
  body: AuditStepBody,
  fields: ({ auditId, step }) => ({ auditId, step }),
  consumer: {
    handle: (env, { auditId, step }, attempts) => processAuditStep(env, auditId, step, attempts),
    retryDelay: stepRetryDelaySeconds,
    retrying: "provider failed; retrying",
  },
  /** Steps that reached the dead-letter queue are failed with the reason, so the audit finishes and says what it missed. */
  deadLetters: {
    handle: (env, { auditId, step }, attempts) => failStepForDeadLetter(env, auditId, step, attempts),
    done: "dead-lettered step",
    failure: "could not mark the step failed",
  },
});
