// Report generation settings: attempts, backoff, stale thresholds, the model and the usage tool name.
import type { Env } from "../../platform/env";

/**
 * Must equal `max_retries` of the `report-jobs` consumer in wrangler.toml (a test reads the file
 * and checks): the consumer treats delivery number max_retries + 1 as the last and saves template
 * content instead of retrying into the dead-letter queue.
 */
export const REPORT_JOBS_MAX_RETRIES = 4;
export const REPORT_MAX_ATTEMPTS = REPORT_JOBS_MAX_RETRIES + 1;

/** The longest delay a queue message may be retried with (12 hours). */
export const MAX_RETRY_DELAY_SECONDS = 43_200;
export const DEFAULT_RETRY_BASE_SECONDS = 10;

/** A `generating` claim older than this is considered dead and re-queued. */
export const STALE_GENERATING_MS = 5 * 60_000;
/** A `queued` report whose message was due longer ago than this is re-sent. */
export const STALE_QUEUED_MS = 30 * 60_000;

export const REPORT_TOOL_NAME = "SEO Report Generator";
export const REPORT_TOOL_NAME_FAILED = `${REPORT_TOOL_NAME} (Failed)`;
export const DEFAULT_REPORT_MODEL = "google/gemini-2.5-flash";

export { AI_NOT_CONFIGURED_REASON } from "./rules/format";

export function reportModel(env: Env): string {
  return env.AI_MODEL_REPORT?.trim() || DEFAULT_REPORT_MODEL;
}

function retryBase(env: Env): number {
  const base = Number(env.REPORT_RETRY_BASE_SECONDS ?? DEFAULT_RETRY_BASE_SECONDS);
  return Number.isFinite(base) && base >= 0 ? base : DEFAULT_RETRY_BASE_SECONDS;
}

/** min(base·2^(attempt-1), 43200) seconds, where `attempt` is the delivery that just failed (1-based). */
export function retryDelaySeconds(env: Env, attempt: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  return Math.min(Math.round(retryBase(env) * 2 ** exponent), MAX_RETRY_DELAY_SECONDS);
}
