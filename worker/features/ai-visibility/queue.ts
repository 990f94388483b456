// ai-visibility queue (and its dead-letter queue): a few answers of one AI Visibility scan per message; the answers of
// a message are asked side by side, each message acked or retried on its own (claims keep answers single).
import { z } from "zod";
import type { AiVisibilityMessage } from "../../platform/env";
import { jobQueue } from "../../platform/jobs/consumer";
import { failAiAnswersForDeadLetter, processAiAnswers } from "./scan";
import { aiRetryDelaySeconds } from "./config";

export const AI_VISIBILITY_QUEUE = "ai-visibility";

/** A few answers of one AI Visibility scan (3 are sent; the schema takes up to 10). */
export const AiVisibilityBody = z.object({ scanId: z.string().min(1).max(100), answerIds: z.array(z.string().min(1).max(100)).min(1).max(10) }) satisfies z.ZodType<AiVisibilityMessage>;

export const aiVisibilityQueues = jobQueue({
  queue: AI_VISIBILITY_QUEUE,
  body: AiVisibilityBody,
  consumer: {
    handle: (env, { scanId, answerIds }, attempts) => processAiAnswers(env, scanId, answerIds, attempts),
    retryDelay: aiRetryDelaySeconds,
    retrying: "an engine failed; retrying",
  },
  /** Answers that reached the dead-letter queue are stored failed with the reason, so a scan always finishes. */
  deadLetters: {
    handle: (env, { scanId, answerIds }, attempts) => failAiAnswersForDeadLetter(env, scanId, answerIds, attempts),
  },
});
