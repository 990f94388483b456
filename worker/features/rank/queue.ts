// rank-checks consumer (and its dead-letter queue): a few grid points of one scan, or a few tracked-keyword checks, per
// message; the items of a message run side by side, each message acked or retried on its own (claims keep items single).
import type { Env } from "../../platform/env";
import { failGridPointsForDeadLetter, processGridPoints } from "./grid";
import { failChecksForDeadLetter, processKeywordChecks } from "./tracker";
import { rankRetryDelaySeconds } from "./config";
import { log, withRequestId } from "../../platform/log";
import { RankCheckBody } from "../../platform/jobs/messages";

export async function consumeRankChecks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = RankCheckBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("rank-checks: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        const body = parsed.data;
        try {
          const outcome =
            body.kind === "grid" ? await processGridPoints(env, body.scanId, body.points, message.attempts) : await processKeywordChecks(env, body.checkIds, message.attempts);
          if (outcome.kind === "retry") {
            log.warn("rank-checks: a search failed; retrying", { kind: body.kind, attempt: message.attempts, delaySeconds: outcome.delaySeconds, reason: outcome.reason });
            message.retry({ delaySeconds: outcome.delaySeconds });
          } else {
            message.ack();
          }
        } catch (error) {
          log.error("rank-checks: unexpected failure", { kind: body.kind, attempt: message.attempts }, error);
          message.retry({ delaySeconds: rankRetryDelaySeconds(message.attempts) });
        }
      }),
    ),
  );
}

/** Points and checks that reached the dead-letter queue are failed with the reason, so a scan always finishes. */
export async function consumeRankChecksDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = RankCheckBody.safeParse(message.body);
      if (!parsed.success) {
        message.ack();
        return;
      }
      const body = parsed.data;
      try {
        if (body.kind === "grid") await failGridPointsForDeadLetter(env, body.scanId, body.points, message.attempts);
        else await failChecksForDeadLetter(env, body.checkIds, message.attempts);
        log.warn("rank-checks-dlq: dead-lettered", { kind: body.kind, deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error("rank-checks-dlq: could not mark failed", { kind: body.kind }, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
