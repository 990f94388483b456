// Local rank tracking's settings (issue 19): one search's time-out, the rank-checks queue's tries and backoff.
import type { Env } from "../../platform/env";

/** One map or organic search may take this long (ms); SEARCH_TIMEOUT_MS overrides it (tests shorten it). */
export const RANK_SEARCH_TIMEOUT_MS = 20_000;

export function rankSearchTimeoutMs(env: Env): number {
  const n = Number(env.SEARCH_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : RANK_SEARCH_TIMEOUT_MS;
}

/** rank-checks' max_retries (wrangler.toml): deliveries of one message are this + 1. */
export const RANK_CHECKS_MAX_RETRIES = 4;
export const RANK_MAX_ATTEMPTS = RANK_CHECKS_MAX_RETRIES + 1;

/** A failed search's message comes back after 10 s, doubling, at most 5 minutes. */
export function rankRetryDelaySeconds(attempt: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, attempt - 1));
}

/** A claim older than the search's time-out and this margin belongs to a worker that died. */
export const RANK_STALE_CLAIM_MARGIN_MS = 30_000;

/** The cron sends again what is still unfinished this long after it was made (a lost message). */
export const RANK_RESEND_AFTER_MS = 10 * 60_000;

/** The zoom the tracker's map search is made at, centred on the business (a neighbourhood's view). */
export const TRACKER_ZOOM = 13;

/** How many due keywords one cron run enqueues at most (the rest wait five minutes). */
export const CRON_KEYWORDS_PER_RUN = 5_000;

/**
 * Items (grid points or keyword checks) per rank-checks message: with max_batch_size 2, a batch makes at most 6 grid
 * searches at once (a Worker invocation's open connections). The queue's schema takes up to 10.
 */
export const RANK_ITEMS_PER_MESSAGE = 3;
