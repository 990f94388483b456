// The Citation Tracker's settings (issue 27): one search's and one page's time-out, the citations queue's tries and
// backoff, the stale-claim margin and the cron's monthly re-scan.
import type { Env } from "../../platform/env";

/** One `site:` search may take this long (ms); SEARCH_TIMEOUT_MS overrides it (tests shorten it). */
export const CITATION_SEARCH_TIMEOUT_MS = 20_000;
/** One listing page may take this long to read (the audit's fetcher, its size and address rules). */
export const CITATION_PAGE_TIMEOUT_MS = 10_000;

export function citationSearchTimeoutMs(env: Env): number {
  const n = Number(env.SEARCH_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : CITATION_SEARCH_TIMEOUT_MS;
}

export function citationPageTimeoutMs(env: Env): number {
  const n = Number(env.AUDIT_FETCH_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? Math.min(n, CITATION_PAGE_TIMEOUT_MS) : CITATION_PAGE_TIMEOUT_MS;
}

/** citations' max_retries (wrangler.toml): deliveries of one message are this + 1. */
export const CITATIONS_MAX_RETRIES = 4;
export const CITATIONS_MAX_ATTEMPTS = CITATIONS_MAX_RETRIES + 1;

/** Sources per citations message: 3 sources × (2 searches, then up to 4 page reads) stays within 6 connections. */
export const CITATION_SOURCES_PER_MESSAGE = 3;

/** A failed search's message comes back after 10 s, doubling, at most 5 minutes. */
export function citationRetryDelaySeconds(attempt: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, attempt - 1));
}

/** A claim older than this belongs to a worker that died (two searches and four page reads, and a margin). */
export function citationStaleClaimMs(env: Env): number {
  return 2 * citationSearchTimeoutMs(env) + 4 * citationPageTimeoutMs(env) + 30_000;
}

/** The cron sends again what is still unfinished this long after the scan was made (a lost message). */
export const CITATION_RESEND_AFTER_MS = 15 * 60_000;
/** Tracked businesses are scanned again this long after their last scan. */
export const CITATION_RESCAN_AFTER_MS = 30 * 86_400_000;
/** How many due businesses one cron run starts at most (the rest wait five minutes). */
export const CITATION_CRON_SCANS_PER_RUN = 20;
