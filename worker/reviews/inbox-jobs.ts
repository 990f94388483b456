// The review inbox's queue jobs (issue 28): `sync` reads a few businesses' Google reviews, `publish` sends a few
// approved replies (or deletions) to Google. Each item is claimed or compared in D1, so a redelivery does nothing twice.
import type { Env, UsageEventMessage } from "../env";
import { log } from "../log";
import { getDb } from "../db/client";
import { recordSync } from "../db/reviews";
import { failRepliesForDeadLetter, publishReplies, syncUserReviews } from "./inbox";
import type { ReviewJobOutcome } from "./jobs";

export async function processReviewSync(env: Env, userIds: string[], attempts: number): Promise<ReviewJobOutcome> {
  const usage: UsageEventMessage[] = [];
  let retry: string | null = null;
  for (const userId of userIds) {
    const outcome = await syncUserReviews(env, userId, usage);
    if (!outcome.ok && outcome.retry) retry = outcome.message;
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
    await recordSync(db, userId, { lastSyncError: `Reading your reviews from Google failed after ${attempts} tries; it is tried again at the next check.` });
  }
}
