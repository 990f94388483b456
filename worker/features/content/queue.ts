// gbp-posts queue and its dead-letter queue: each post of a message published once (claimed in D1) or its review
// state checked; retries and later looks go out as new delayed messages, so a message is retried only when the consumer fails.
import { z } from "zod";
import type { GbpPostsMessage } from "../../platform/env";
import { jobQueue } from "../../platform/jobs/consumer";
import { processPost, releasePosts } from "./gbp-publish";

export const GBP_POSTS_QUEUE = "gbp-posts";

export const GbpPostsBody = z.object({ postIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<GbpPostsMessage>;

export const gbpPostsQueues = jobQueue({
  queue: GBP_POSTS_QUEUE,
  body: GbpPostsBody,
  fields: ({ postIds }) => ({ postIds: postIds.join(",") }),
  consumer: {
    // One after another: a few posts per message, and Google's per-user quota is small.
    handle: async (env, { postIds }) => {
      for (const postId of postIds) await processPost(env, postId);
    },
    retryDelay: (attempts) => 60 * attempts,
    oneByOne: true,
  },
  deadLetters: {
    handle: (env, { postIds }) => releasePosts(env, postIds, "Publishing failed on our side after several tries. Reschedule it, or copy it and post it yourself."),
    retryDelay: () => 300,
    failure: "could not release posts",
    done: undefined,
  },
});
