// citations consumer (and its dead-letter queue): a few sources of one citation scan per message; the sources of a
// message run side by side, each message acked or retried on its own (claims keep sources single).
import type { Env } from "../../platform/env";
import { failCitationSourcesForDeadLetter, processCitationSources } from "./scan";
import { citationRetryDelaySeconds } from "./config";
import { log, withRequestId } from "../../platform/log";
import { CitationsBody } from "../../platform/jobs/messages";

export async function consumeCitations(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      withRequestId(message.id, async () => {
        const parsed = CitationsBody.safeParse(message.body);
        if (!parsed.success) {
          log.warn("citations: dropping a malformed message", { queue: batch.queue, issue: parsed.error.issues[0]?.message });
          message.ack();
          return;
        }
        const { scanId, sources } = parsed.data;
        try {
          const outcome = await processCitationSources(env, scanId, sources, message.attempts);
          if (outcome.kind === "retry") {
            log.warn("citations: a search failed; retrying", { attempt: message.attempts, delaySeconds: outcome.delaySeconds, reason: outcome.reason });
            message.retry({ delaySeconds: outcome.delaySeconds });
          } else {
            message.ack();
          }
        } catch (error) {
          log.error("citations: unexpected failure", { attempt: message.attempts }, error);
          message.retry({ delaySeconds: citationRetryDelaySeconds(message.attempts) });
        }
      }),
    ),
  );
}

/** Sources that reached the dead-letter queue are stored unknown with the reason, so a scan always finishes. */
export async function consumeCitationsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const parsed = CitationsBody.safeParse(message.body);
      if (!parsed.success) {
        message.ack();
        return;
      }
      try {
        await failCitationSourcesForDeadLetter(env, parsed.data.scanId, parsed.data.sources, message.attempts);
        log.warn("citations-dlq: dead-lettered", { deliveries: message.attempts });
        message.ack();
      } catch (error) {
        log.error("citations-dlq: could not mark failed", {}, error);
        message.retry({ delaySeconds: 30 });
      }
    });
  }
}
