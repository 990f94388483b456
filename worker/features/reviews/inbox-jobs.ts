// The review inbox's queue jobs (issue 28): `sync` reads a few businesses' Google reviews, `publish` sends a few
// approved replies (or deletions) to Google. Each item is claimed or compared in D1, so a redelivery does nothing twice.
import type { Env, UsageEventMessage } from "../../platform/env";
import { log } from "../../platform/log";
import { getDb } from "../../platform/db/client";
import { recordSync, releaseSyncClaim } from "./queries";
import { failRepliesForDeadLetter, publishReplies, syncUserReviews } from "./inbox";
import type { ReviewJobOutcome } from "./jobs";

/**
 * The env with a D1 binding that counts the statements prepared through it (each one D1 query), so a sync logs what it
 * cost in D1 (the bench reads it). Without LIBSQL_URL only: libSQL does not go through the binding.
 */
function countingD1(env: Env): { env: Env; statements: () => number } {
  let n = 0;
  const db = env.DB;
  const DB = new Proxy(db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop === "prepare" && typeof value === "function") {
        return (query: string) => {
          n++;
          return (value as D1Database["prepare"]).call(target, query);
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { env: { ...env, DB }, statements: () => n };
}

export async function processReviewSync(env: Env, userIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  const usage: UsageEventMessage[] = [];
  let retry: string | null = null;
  for (const userId of userIds) {
    const counted = countingD1(env);
    const started = Date.now();
    const outcome = await syncUserReviews(counted.env, userId, usage);
    if (!outcome.ok && outcome.retry) retry = outcome.message;
    // The business's Check now claim ends with its sync (kept while Google's not answering is retried).
    else await releaseSyncClaim(getDb(env), userId);
    if (outcome.ok) {
      const changed = outcome.inserted + outcome.updated + outcome.deleted;
      log.info("reviews: synced", { userId, ...outcome, d1Queries: counted.statements(), ms: Date.now() - started, perChangedReview: changed ? Math.round((counted.statements() / changed) * 1000) / 1000 : null });
    }
  }
  if (usage.length > 0) {
    await env.USAGE_EVENTS.sendBatch(usage.map((body) => ({ body }))).catch((error: unknown) => log.error("reviews: usage events not sent", { count: usage.length }, error));
  }
  // A sync that stored what it read is safe to run again: a retry only re-reads Google.
  return retry ? { kind: "retry", reason: `${retry} (attempt ${attempts})` } : { kind: "done" };
}

export async function processReviewPublish(env: Env, reviewIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  void attempts;
  return publishReplies(env, reviewIds);
}

export async function failReviewsForDeadLetter(env: Env, body: { kind: "sync"; userIds: string[] } | { kind: "publish"; reviewIds: string[] }, attempts: number): Promise<void> {
  if (body.kind === "publish") return failRepliesForDeadLetter(env, body.reviewIds);
  const db = getDb(env);
  for (const userId of body.userIds) {
    await releaseSyncClaim(db, userId);
    await recordSync(db, userId, { lastSyncError: `Reading your reviews from Google failed after ${attempts} tries; it is tried again at the next check.` });
  }
}
