// Publishing scheduled posts to Google Business Profile: the cron sweep enqueues due posts on gbp-posts (or turns them
// into reminders without a connection); the consumer claims each post in D1, publishes it once, then looks at its review
// state until it settles. Retries and later looks are new messages with a delay, so every message is acked.
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import {
  scheduledPostJob,
  connectionsOf,
  deleteExpiredOauthStates,
  duePosts,
  failStaleClaims,
  findConnection,
  findScheduledPost,
  markReminded,
  markSynced,
  recordConnectionError,
  settlePost,
  type ScheduledPostRow,
} from "../integrations";
import { GOOGLE_ERROR_MESSAGES } from "./rules/gbp-schedule";
import { GmbPost } from "../../platform/providers/rules/gmb-post";
import type { Env } from "../../platform/env";
import { announce } from "../../platform/events";
import { log } from "../../platform/log";
import { sendAppMail } from "../../platform/mail/send";
import { linkOrigin } from "../../platform/origin";
import { createLocalPost, getLocalPost, GoogleError, googleConfig } from "../../platform/providers/google";
import { withAccessToken } from "../integrations";

/** Post ids per gbp-posts message. */
export const GBP_POSTS_PER_MESSAGE = 5;
/** Tries of one publication before it fails (5xx, time-outs). */
export const PUBLISH_MAX_ATTEMPTS = 6;
/** Google keeps a post in review at most this long before we stop looking. */
export const REVIEW_GIVE_UP_MS = 48 * 3600_000;
/** A queued post is not enqueued again by the sweep before this (its message is on the way). */
const ENQUEUED_HOLD_MS = 10 * 60_000;

export const REJECTED_AFTER_REVIEW =
  "Google rejected this post after review (Google's API gives the state REJECTED without a reason; a phone number or link in the text, or content against Google's posting policy, are the usual causes).";
export const RECONNECT_REASON = "Google refused the connection: reconnect Google Business Profile on the Integrations page, then reschedule.";
export const REMINDER_REASON = "Google Business Profile is not connected, so copy this post and post it on your listing.";

export function publishRetryDelaySeconds(attempt: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempt - 1), 3600);
}

export function reconcileDelaySeconds(env: Env): number {
  const n = Number(env.GBP_RECONCILE_SECONDS);
  return n > 0 ? n : 60;
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

type SettleSet = Parameters<typeof settlePost>[3];
/** The states that change the client's post figures on the agency's clients view. */
const FIGURE_STATES: ReadonlySet<string> = new Set(["live", "failed", "rejected"]);

/** settlePost, and when the post went live, failed or was rejected, the clients view told (its "posts" figures). */
async function settle(env: Env, db: Db, post: { id: string; userId: string }, from: Parameters<typeof settlePost>[2], set: SettleSet): Promise<boolean> {
  const settled = await settlePost(db, post.id, from, set);
  if (settled && FIGURE_STATES.has(set.state)) await announce("client.figures-changed", { env, db, userId: post.userId, group: "posts" });
  return settled;
}

async function enqueue(env: Env, postIds: string[], delaySeconds?: number) {
  for (let i = 0; i < postIds.length; i += GBP_POSTS_PER_MESSAGE) {
    const chunk = postIds.slice(i, i + GBP_POSTS_PER_MESSAGE);
    await env.GBP_POSTS.send({ postIds: chunk }, delaySeconds ? { delaySeconds } : undefined);
  }
}

function appLink(env: Env): string | null {
  const origin = linkOrigin(env);
  return origin ? `${origin}/tools/gmb-post-scheduler` : null;
}

/** A due post nobody will publish: in-app reminder, and by mail when mail is configured. */
async function remind(env: Env, db: Db, postId: string, reason = REMINDER_REASON) {
  const reminded = await markReminded(db, postId, reason);
  if (!reminded?.email) return;
  const link = appLink(env);
  if (!link) return log.warn("gbp reminder: APP_ORIGIN not set, no mail", { postId });
  const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: reminded.row.timezone }).format(new Date(reminded.row.scheduledAt));
  try {
    await sendAppMail(env, db, "gbp_post_due", { to: reminded.email, link, detail: when }, { readable: false });
  } catch (error) {
    log.error("gbp reminder mail failed", { postId }, error);
  }
}

/** The cron's part: due posts go on gbp-posts when their owner is connected, else become reminders. */
export async function sweepDuePosts(env: Env): Promise<{ queued: number; reminded: number }> {
  const db = getDb(env);
  const [interrupted] = await Promise.all([failStaleClaims(db), deleteExpiredOauthStates(db)]);
  for (const userId of new Set(interrupted)) await announce("client.figures-changed", { env, db, userId, group: "posts" });
  const now = new Date().toISOString();
  const due = await duePosts(db, now);
  if (due.length === 0) return { queued: 0, reminded: 0 };
  const connected = new Set(
    googleConfig(env) ? (await connectionsOf(db, [...new Set(due.map((d) => d.userId))])).filter((c) => c.status === "connected").map((c) => c.userId) : [],
  );
  const toQueue: string[] = [];
  let reminded = 0;
  for (const post of due) {
    if (post.state === "processing" || (connected.has(post.userId) && post.locationName)) toQueue.push(post.id);
    else {
      await remind(env, db, post.id);
      reminded++;
    }
  }
  for (const id of toQueue) await settleHold(db, id);
  await enqueue(env, toQueue);
  return { queued: toQueue.length, reminded };
}

async function settleHold(db: Db, id: string) {
  const row = await findScheduledPost(db, id);
  if (row && (row.state === "scheduled" || row.state === "processing")) await settlePost(db, id, row.state, { state: row.state, nextAttemptAt: later(ENQUEUED_HOLD_MS / 1000) });
}

/** One post of a gbp-posts message: publish it (once) or look at its review state. */
export async function processPost(env: Env, postId: string): Promise<void> {
  const db = getDb(env);
  const row = await findScheduledPost(db, postId);
  if (!row) return;
  if (row.state === "processing") return reconcile(env, db, row);
  if (row.state !== "scheduled") return; // published, settled or claimed by another delivery: nothing to do twice
  const connection = await findConnection(db, row.userId);
  if (!googleConfig(env) || connection?.status !== "connected" || !row.locationName) {
    if (Date.parse(row.scheduledAt) <= Date.now()) await remind(env, db, row.id);
    return;
  }
  const now = new Date().toISOString();
  const [claimed] = await claim(db, scheduledPostJob, [row.id, now], { now });
  if (!claimed) return;
  const post = GmbPost.safeParse(JSON.parse(claimed.body));
  if (!post.success) {
    await settle(env, db, row, "publishing", { state: "failed", reason: `The post is not valid: ${post.error.issues[0]?.message ?? "invalid"}` });
    return;
  }
  const config = googleConfig(env)!;
  try {
    const answer = await withAccessToken(env, db, connection, (token) => createLocalPost(config, token, claimed.locationName!, post.data));
    await markSynced(db, connection.id);
    const state = answer.state === "LIVE" ? "live" : answer.state === "REJECTED" ? "rejected" : "processing";
    const delay = reconcileDelaySeconds(env);
    await settle(env, db, row, "publishing", {
      state,
      googlePostName: answer.name,
      googleSearchUrl: answer.searchUrl ?? null,
      publishedAt: new Date().toISOString(),
      reason: state === "rejected" ? REJECTED_AFTER_REVIEW : null,
      nextAttemptAt: state === "processing" ? later(delay) : null,
    });
    if (state === "processing") await enqueue(env, [row.id], delay);
  } catch (error) {
    if (!(error instanceof GoogleError)) {
      await settlePost(db, row.id, "publishing", { state: "scheduled", reason: "Publishing stopped on an unexpected error; it will be tried again." });
      throw error;
    }
    await publishFailed(env, db, claimed, connection.userId, error);
  }
}

async function publishFailed(env: Env, db: Db, row: ScheduledPostRow, userId: string, error: GoogleError) {
  log.warn("gbp publish refused", { postId: row.id, kind: error.kind, status: error.status, attempt: row.attempts });
  switch (error.kind) {
    case "token_refused":
      // The connection is marked (withAccessToken); the post waits on the calendar and becomes a reminder at the next sweep.
      await settlePost(db, row.id, "publishing", { state: "scheduled", reason: RECONNECT_REASON, nextAttemptAt: null });
      return;
    case "unavailable": {
      if (row.attempts >= PUBLISH_MAX_ATTEMPTS) {
        await settle(env, db, row, "publishing", { state: "failed", reason: `Google did not accept the post after ${row.attempts} tries (${error.message}).` });
        return;
      }
      const delay = publishRetryDelaySeconds(row.attempts);
      await settlePost(db, row.id, "publishing", { state: "scheduled", reason: `Google did not answer (${error.message}); trying again in ${delay} s.`, nextAttemptAt: later(delay) });
      await enqueue(env, [row.id], delay);
      return;
    }
    case "api_not_enabled":
    case "not_approved":
      await recordConnectionError(db, userId, error.kind, GOOGLE_ERROR_MESSAGES[error.kind]!);
      await settle(env, db, row, "publishing", { state: "failed", reason: GOOGLE_ERROR_MESSAGES[error.kind]! });
      return;
    case "refused":
      await settle(env, db, row, "publishing", { state: "rejected", reason: `Google refused the post: ${error.message}` });
      return;
  }
}

/** Looks at a published post's review state: LIVE or REJECTED settle it; PROCESSING looks again later. */
async function reconcile(env: Env, db: Db, row: ScheduledPostRow) {
  const connection = await findConnection(db, row.userId);
  const config = googleConfig(env);
  if (!config || !connection || !row.googlePostName) return;
  const delay = reconcileDelaySeconds(env);
  try {
    const answer = await withAccessToken(env, db, connection, (token) => getLocalPost(config, token, row.googlePostName!));
    if (answer.state === "LIVE") await settle(env, db, row, "processing", { state: "live", reason: null, nextAttemptAt: null, googleSearchUrl: answer.searchUrl ?? row.googleSearchUrl });
    else if (answer.state === "REJECTED") await settle(env, db, row, "processing", { state: "rejected", reason: REJECTED_AFTER_REVIEW, nextAttemptAt: null });
    else if (row.publishedAt && Date.now() - Date.parse(row.publishedAt) > REVIEW_GIVE_UP_MS) {
      await settle(env, db, row, "processing", { state: "failed", reason: "Google kept the post in review for two days; check your listing." });
    } else {
      await settlePost(db, row.id, "processing", { state: "processing", nextAttemptAt: later(delay) });
      await enqueue(env, [row.id], delay);
    }
  } catch (error) {
    if (!(error instanceof GoogleError)) throw error;
    // Not settled: looked at again later (after a reconnect, the sweep picks it up when its time comes).
    const wait = error.kind === "token_refused" ? 3600 : delay;
    await settlePost(db, row.id, "processing", { state: "processing", nextAttemptAt: later(wait) });
    if (error.kind === "unavailable") await enqueue(env, [row.id], wait);
  }
}

/** What the dead-letter queue does with posts whose message the consumer could not handle: none stays claimed. */
export async function releasePosts(env: Env, postIds: string[], reason: string) {
  const db = getDb(env);
  for (const id of postIds) {
    const row = await findScheduledPost(db, id);
    if (row) await settle(env, db, row, "publishing", { state: "failed", reason });
  }
}
