// AI Visibility's settings (issue 29): answers per queue message, the queue's tries, the stale-claim margin, the plan
// limits on questions, the weekly tracking and the usage screens' tool name.
import type { Env } from "../../platform/env";

/** Answers per `ai-visibility` message: 3 calls side by side, 2 messages a batch, stay within a Worker's 6 connections. */
export const AI_ANSWERS_PER_MESSAGE = 3;

/** ai-visibility's max_retries (wrangler.toml): deliveries of one message are this + 1. */
export const AI_VISIBILITY_MAX_RETRIES = 4;
export const AI_VISIBILITY_MAX_ATTEMPTS = AI_VISIBILITY_MAX_RETRIES + 1;

/** A retried message comes back after 15 s, doubling, at most 5 minutes. */
export function aiRetryDelaySeconds(attempt: number): number {
  return Math.min(300, 15 * 2 ** Math.max(0, attempt - 1));
}

/** One engine call may take up to a minute (web search answers are slow); a claim older than twice that is a dead worker's. */
export function aiStaleClaimMs(env: Env): number {
  void env;
  return 150_000;
}

/** The cron sends again what is still unfinished this long after the scan was made (a lost message). */
export const AI_RESEND_AFTER_MS = 15 * 60_000;

/** Questions a business may keep and ask in one scan: Free 3, Self Service (and admins) 10. */
export const AI_QUESTION_LIMITS = { free: 3, paid: 10 } as const;

/** The usage screens' name for the engine calls and the scan's Maps search. */
export const AI_VISIBILITY_TOOL = "AI Visibility";

/** Businesses one cron run starts weekly scans for at most (the rest wait five minutes). */
export const AI_WEEKLY_SCANS_PER_RUN = 10;
