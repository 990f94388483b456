// The audit's settings: each step's time-out, how long report generation waits for the fast steps, the re-run rule.
import type { AuditStepId } from "./rules/view";
import type { Env } from "../../platform/env";

/** Each step's own time-out (ms): the website fetch is bounded at 10 s by the issue; page speed takes 15–40 s. */
export const STEP_TIMEOUT_MS: Record<AuditStepId, number> = { find: 15_000, fetch: 10_000, speed: 60_000, rank: 30_000 };

const ENV_NAME = { find: "AUDIT_FIND_TIMEOUT_MS", fetch: "AUDIT_FETCH_TIMEOUT_MS", speed: "AUDIT_SPEED_TIMEOUT_MS", rank: "AUDIT_RANK_TIMEOUT_MS" } as const;

export function stepTimeoutMs(env: Env, step: AuditStepId): number {
  const n = Number(env[ENV_NAME[step]]);
  return Number.isFinite(n) && n > 0 ? n : STEP_TIMEOUT_MS[step];
}

/** A claim older than the step's time-out and this margin belongs to a worker that died: the step may be taken again. */
export const STALE_CLAIM_MARGIN_MS = 30_000;

/** The audits queue's max_retries (wrangler.toml): deliveries of one step are this + 1. */
export const AUDITS_MAX_RETRIES = 4;
export const AUDIT_STEP_MAX_ATTEMPTS = AUDITS_MAX_RETRIES + 1;

/** A provider's refusal (429, 5xx) is retried after 15 s, doubling, at most 5 minutes. */
export function stepRetryDelaySeconds(attempt: number): number {
  return Math.min(300, 15 * 2 ** Math.max(0, attempt - 1));
}

/** The steps report generation waits for (page speed joins the report later). */
export const FAST_STEPS: readonly AuditStepId[] = ["find", "fetch", "rank"];

/** How long report generation waits for the fast steps, from the audit's start (ms). */
export function reportWaitMs(env: Env): number {
  const n = Number(env.AUDIT_REPORT_WAIT_MS);
  return Number.isFinite(n) && n >= 0 && env.AUDIT_REPORT_WAIT_MS !== undefined && env.AUDIT_REPORT_WAIT_MS !== "" ? n : 90_000;
}

/** While waiting, the report job comes back after this long. */
export const REPORT_WAIT_POLL_SECONDS = 3;

/**
 * A step still waiting this long after the audit's last progress (its start, a claim, a step finished) is ended as
 * unavailable (issue 26): no step stays pending forever, even where no cron runs (wrangler dev) or a message was lost.
 * Longer than a step's five tries with their back-off (page speed: 5 × 60 s + 225 s).
 */
export const STEP_DEADLINE_MS = 12 * 60_000;
export const TIMED_OUT_REASON = `unavailable: it did not finish within ${STEP_DEADLINE_MS / 60_000} minutes`;

/** An audit may be re-run once it is this old (GoHighLevel's rule). */
export const RERUN_AFTER_MS = 7 * 86_400_000;
