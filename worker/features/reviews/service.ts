// What the review routes ask of the capability beyond its inbox engine: a check now (one every few minutes, none while
// one runs) and an on-demand reply draft (refused with the meter's 402 when the allowance is used up).
import type { Db } from "../../platform/db/client";
import type { Env, UsageEventMessage } from "../../platform/env";
import { ErrorCode } from "../../platform/errors";
import { aiConfigured } from "../../platform/providers/ai";
import { googleConfig } from "../../platform/providers/google";
import { findConnection } from "../integrations";
import { draftFits, draftReply, SYNC_CLAIM_STALE_MS, SYNC_MIN_INTERVAL_MS } from "./inbox";
import { claimManualSync, findReview, findReviewSettings, recordSync, releaseSyncClaim, replyBusinessOf, saveDraft, settingsOfRow, type ReviewRow } from "./queries";
import { REVIEWS_CONNECT_HINT, REVIEWS_RECONNECT_HINT } from "./rules/reviews";

export const ReviewErrorCode = { notConnected: "google_not_connected", replyBusy: "reply_in_progress", noReply: "no_reply", syncInProgress: "sync_in_progress", syncTooSoon: "sync_too_soon" } as const;

export type SyncRequest =
  | { kind: "queued" }
  | { kind: "not_connected"; message: string }
  | { kind: "wait"; code: string; message: string; retryAt: string; retryAfterSeconds: number };

/** Why a check cannot start now: one is running, or the last was a moment ago; and when the next may. */
function syncWait(refused: { syncClaimedAt: string | null; syncRequestedAt: string | null }, now: number): SyncRequest {
  const inFlight = refused.syncClaimedAt !== null && Date.parse(refused.syncClaimedAt) > now - SYNC_CLAIM_STALE_MS;
  const nextAt = Math.max(refused.syncRequestedAt ? Date.parse(refused.syncRequestedAt) + SYNC_MIN_INTERVAL_MS : now, now + 1000);
  const minutes = Math.max(1, Math.ceil((nextAt - now) / 60_000));
  const when = `You can check again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`;
  return {
    kind: "wait",
    ...(inFlight
      ? { code: ReviewErrorCode.syncInProgress, message: `Your reviews are being read from Google right now: they show here in a moment. ${when}` }
      : { code: ReviewErrorCode.syncTooSoon, message: `Your reviews were checked a moment ago. ${when}` }),
    retryAt: new Date(nextAt).toISOString(),
    retryAfterSeconds: Math.ceil((nextAt - now) / 1000),
  };
}

/** "Check now": the user's reviews read from Google on the queue, once Google is connected and no check is too recent. */
export async function requestSync(env: Env, db: Db, userId: string, now = Date.now()): Promise<SyncRequest> {
  const connection = googleConfig(env) ? await findConnection(db, userId) : null;
  if (connection?.status !== "connected") {
    return { kind: "not_connected", message: connection?.status === "needs_reconnect" ? REVIEWS_RECONNECT_HINT : REVIEWS_CONNECT_HINT };
  }
  const iso = (ms: number) => new Date(ms).toISOString();
  const refused = await claimManualSync(db, userId, iso(now), iso(now - SYNC_MIN_INTERVAL_MS), iso(now - SYNC_CLAIM_STALE_MS));
  if (refused) return syncWait(refused, now);
  try {
    await env.REVIEWS.send({ kind: "sync", userIds: [userId] });
  } catch (error) {
    await releaseSyncClaim(db, userId);
    throw error;
  }
  await recordSync(db, userId, { lastSyncError: null });
  return { kind: "queued" };
}

/** The 402 of an AI draft past the allowance, in the inbox's words. */
function draftAllowanceRefusal(allowanceLeftUsd: number | null) {
  const left = allowanceLeftUsd === null ? "" : ` ($${allowanceLeftUsd.toFixed(2)} left)`;
  return {
    code: ErrorCode.budgetExceeded,
    message: `An AI draft needs a little of your AI allowance, and this month's is used up${left}. Edit the current draft yourself, or draft again next month.`,
  };
}

/** A new reply draft saved on the review (AI when configured and within the allowance, else a template). */
export async function draftOnDemand(
  env: Env,
  db: Db,
  userId: string,
  row: ReviewRow,
  logUsage: (event: UsageEventMessage) => void,
): Promise<{ ok: true; review: ReviewRow } | { ok: false; refusal: { code: string; message: string } }> {
  const [settingsRow, business] = await Promise.all([findReviewSettings(db, userId), replyBusinessOf(db, userId)]);
  const settings = settingsOfRow(settingsRow);
  if (aiConfigured(env)) {
    const fits = await draftFits(env, db, userId, row, settings, business);
    if (!fits.allowed) return { ok: false, refusal: draftAllowanceRefusal(fits.allowanceLeftUsd) };
  }
  await saveDraft(db, row.id, await draftReply(env, userId, row, settings, business, logUsage));
  return { ok: true, review: (await findReview(db, row.id))! };
}
