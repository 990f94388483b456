// gbp-posts consumer and its dead-letter queue: each post of a message published once (claimed in D1) or its review
// state checked; retries and later looks go out as new delayed messages, so a message is retried only when the consumer fails.
import type { Env } from "../../platform/env";
import { log, withRequestId } from "../../platform/log";
import { processPost, releasePosts } from "./gbp-publish";
import { GbpPostsBody } from "../../platform/jobs/messages";

function parse(message: Message<unknown>, queue: string): string[] | null {
  const parsed = GbpPostsBody.safeParse(message.body);
  if (parsed.success) return parsed.data.postIds;
  log.warn(`${queue}: dropping a malformed message`, { issue: parsed.error.issues[0]?.message });
  message.ack();
  return null;
}

export async function consumeGbpPosts(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const postIds = parse(message, "gbp-posts");
      if (!postIds) return;
      try {
        // One after another: a few posts per message, and Google's per-user quota is small.
        for (const postId of postIds) await processPost(env, postId);
        message.ack();
      } catch (error) {
        log.error("gbp-posts: unexpected failure", { postIds: postIds.join(","), attempt: message.attempts }, error);
        message.retry({ delaySeconds: 60 * message.attempts });
      }
    });
  }
}

export async function consumeGbpPostsDeadLetter(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await withRequestId(message.id, async () => {
      const postIds = parse(message, "gbp-posts-dlq");
      if (!postIds) return;
      try {
        await releasePosts(env, postIds, "Publishing failed on our side after several tries. Reschedule it, or copy it and post it yourself.");
        message.ack();
      } catch (error) {
        log.error("gbp-posts-dlq: could not release posts", { postIds: postIds.join(",") }, error);
        message.retry({ delaySeconds: 300 });
      }
    });
  }
}
