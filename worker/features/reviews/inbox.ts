// The review inbox (issue 28): reads a business's Google reviews through the Business Profile API (paged, newest
// first), keeps each once by Google's id (an edit updates it in place, its earlier version kept), drafts replies
// (AI in the business's voice, metered; a template when AI is not available), publishes and deletes replies through
// the reviews queue, auto-publishes 4–5 star replies when the owner asked, and raises the alerts and webhooks.
import { withAccessToken } from "../integrations";
import { getDb, type Db } from "../../platform/db/client";
import { claim } from "../../platform/jobs/claim";
import { findConnection, markSynced, parseLocations } from "../integrations";
import {
  applyReviewChanges,
  autoPublishJob,
  dueAutoPublish,
  holdAutoPublish,
  claimDueSyncs,
  replyJob,
  findReviewSettings,
  recordSync,
  replyBusinessOf,
  saveDraft,
  settingsOfRow,
  settleReply,
  staleReplyClaims,
  storedReviewIndex,
  failReplies,
  type NewReviewRow,
  type ReviewChange,
  type ReviewRow,
} from "./queries";
import { GOOGLE_ERROR_MESSAGES } from "../content/rules/gbp-schedule";
import {
  autoPublishEligible,
  AUTO_PUBLISH_HELD_NOTICE,
  foreignContacts,
  parseReplyAnswer,
  replyPrompt,
  starsOf,
  templateReply,
  TEMPLATE_DRAFT_NOTICE,
  UNUSABLE_DRAFT_NOTICE,
  type ReplyBusiness,
  type ReviewSettingsInput,
} from "./rules/reviews";
import { estimateMicro } from "../../domain/metering";
import type { Env, UsageEventMessage } from "../../platform/env";
import { runGeneration, postModel } from "../content";
import { log } from "../../platform/log";
import { announce } from "../../platform/events";
import { fitsAllowance } from "../../platform/metering/meter";
import { emitOwnEvents, type OwnEvent } from "../../platform/notifications/emit";
import { deleteReviewReply, GoogleError, googleConfig, listReviews, updateReviewReply, type GoogleReview } from "../../platform/providers/google";
import type { ReviewJobOutcome } from "./jobs";

/** Pages read per location and sync (50 a page: 2,000 reviews). */
export const SYNC_MAX_PAGES = 40;
/** New unanswered reviews a sync drafts with AI (newest first); the others get a template draft, redrafted on demand. */
export const AI_DRAFTS_PER_SYNC = 3;
/** Businesses per sync message, and how often the cron reads each business. */
export const SYNC_USERS_PER_MESSAGE = 3;
export const SYNC_EVERY_MS = 6 * 3_600_000;
/**
 * Check now: one sync in flight per business and at least this long between two (each reads up to SYNC_MAX_PAGES pages
 * a location on the operator's Google quota). A claim older than SYNC_CLAIM_STALE_MS is taken to have died.
 */
export const SYNC_MIN_INTERVAL_MS = 5 * 60_000;
export const SYNC_CLAIM_STALE_MS = 30 * 60_000;
/** Tries of one publish (Google not answering) before it fails. */
export const PUBLISH_MAX_ATTEMPTS = 5;
/** A first sync alerts (and sends review.created for) only the reviews written this recently, not the whole history. */
const INITIAL_ALERT_WINDOW_MS = 48 * 3_600_000;
/** A publish claim older than this is taken back by the cron. */
const STALE_CLAIM_MS = 10 * 60_000;
export const REVIEW_REPLY_TOOL = "Review Reply";

export const REPLY_REFUSED_PREFIX = "Google refused the reply";

// ---- sync ----

export type SyncOutcome = { ok: true; inserted: number; updated: number; deleted: number; statements: number } | { ok: false; retry: boolean; message: string };

function reviewerOf(r: GoogleReview) {
  const anonymous = r.reviewer?.isAnonymous === true;
  return { name: r.reviewer?.displayName?.trim() || (anonymous ? "A Google user" : "A Google user"), photo: r.reviewer?.profilePhotoUrl ?? null, anonymous };
}

/** Reads every chosen location's reviews and stores what changed. Google's refusals are recorded in plain words. */
export async function syncUserReviews(env: Env, userId: string, usage: UsageEventMessage[] = [], now = new Date()): Promise<SyncOutcome> {
  const db = getDb(env);
  const config = googleConfig(env);
  const connection = await findConnection(db, userId);
  if (!config || connection?.status !== "connected") {
    return { ok: false, retry: false, message: "Google is not connected." };
  }
  const locations = parseLocations(connection.chosenLocations);
  const [stored, settingsRow, business] = await Promise.all([storedReviewIndex(db, userId), findReviewSettings(db, userId), replyBusinessOf(db, userId)]);
  const settings = settingsOfRow(settingsRow);
  const initial = stored.size === 0;
  const at = now.toISOString();
  let inserted = 0;
  let updated = 0;
  let deleted = 0;
  let statements = 0;
  const fresh: NewReviewRow[] = [];
  let average: number | null = null;
  let total = 0;
  try {
    for (const location of locations) {
      const seen = new Set<string>();
      let pageToken: string | null = null;
      let complete = false;
      for (let page = 0; page < SYNC_MAX_PAGES; page++) {
        const answer = await withAccessToken(env, db, connection, (token) => listReviews(config, token, location.name, pageToken));
        if (page === 0) {
          if (answer.averageRating !== null) average = average === null ? answer.averageRating : (average + answer.averageRating) / 2;
          total += answer.totalReviewCount ?? 0;
        }
        const changes: ReviewChange[] = [];
        for (const g of answer.reviews) {
          if (!g.reviewId || seen.has(g.reviewId)) continue;
          seen.add(g.reviewId);
          const change = changeFor(g, stored.get(g.reviewId), location.name, userId, settings, business, now);
          if (!change) continue;
          changes.push(change);
          if (change.kind === "insert") {
            inserted++;
            fresh.push(change.row);
          } else updated++;
        }
        statements += await applyReviewChanges(db, changes);
        if (!answer.nextPageToken) {
          complete = true;
          break;
        }
        pageToken = answer.nextPageToken;
      }
      // Only a complete listing tells which reviews Google no longer has.
      if (complete) {
        const gone: ReviewChange[] = [];
        for (const s of stored.values()) if (s.locationName === location.name && !s.deletedAt && !seen.has(s.googleReviewId)) gone.push({ kind: "deleted", id: s.id });
        deleted += gone.length;
        statements += await applyReviewChanges(db, gone);
      }
    }
  } catch (error) {
    if (!(error instanceof GoogleError)) throw error;
    const message = error.kind === "refused" ? `Google refused to list the reviews: ${error.message}` : GOOGLE_ERROR_MESSAGES[error.kind] ?? error.message;
    log.warn("reviews: sync refused", { userId, kind: error.kind, status: error.status });
    await recordSync(db, userId, { lastSyncError: message });
    return { ok: false, retry: error.kind === "unavailable", message };
  }
  await Promise.all([recordSync(db, userId, { lastSyncAt: at, lastSyncError: null, googleAverage: average, googleTotal: total }), markSynced(db, connection.id)]);
  await draftNewReviews(env, db, userId, fresh, settings, business, usage);
  await alertNewReviews(env, userId, fresh, initial, now);
  // The stored reviews and Google's average changed: the agency's clients view reads this client's figures again.
  await announce("client.figures-changed", { env, db, userId, group: "reviews" });
  return { ok: true, inserted, updated, deleted, statements };
}

/** What one listed review changes in D1: a new row, an update in place (the replaced version kept), or nothing. */
function changeFor(
  g: GoogleReview,
  s: Awaited<ReturnType<typeof storedReviewIndex>> extends Map<string, infer V> ? V | undefined : never,
  locationName: string,
  userId: string,
  settings: ReviewSettingsInput,
  business: ReplyBusiness,
  now: Date,
): ReviewChange | null {
  const stars = starsOf(g.starRating);
  const comment = g.comment?.trim() ? g.comment : null;
  const reviewer = reviewerOf(g);
  const reply = g.reviewReply?.comment ? g.reviewReply : null;
  if (!s) {
    const draft = reply ? null : templateReply({ reviewerName: reviewer.name, anonymous: reviewer.anonymous, stars, comment }, business, settings);
    return {
      kind: "insert",
      row: {
        id: crypto.randomUUID(),
        userId,
        locationName,
        googleReviewId: g.reviewId,
        googleName: g.name,
        reviewerName: reviewer.name,
        reviewerPhotoUrl: reviewer.photo,
        reviewerAnonymous: reviewer.anonymous,
        stars,
        comment,
        createTime: g.createTime,
        updateTime: g.updateTime,
        replyComment: reply?.comment ?? null,
        replyUpdateTime: reply?.updateTime ?? null,
        replyState: reply ? "published" : "none",
        draft,
        draftSource: draft ? "template" : null,
        draftNotice: draft ? TEMPLATE_DRAFT_NOTICE : null,
        autoPublishAt: !reply && autoPublishEligible(stars, settings) ? new Date(now.getTime() + settings.autoPublishDelayHours * 3_600_000).toISOString() : null,
      },
    };
  }
  const reviewChanged = s.updateTime !== g.updateTime && (s.stars !== stars || (s.comment ?? null) !== comment);
  const replyChanged = (s.replyComment ?? null) !== (reply?.comment ?? null) || (s.replyUpdateTime ?? null) !== (reply?.updateTime ?? null);
  const undeleted = s.deletedAt !== null;
  if (!reviewChanged && !replyChanged && !undeleted && s.updateTime === g.updateTime) return null;
  const set: Partial<NewReviewRow> = { stars, comment, updateTime: g.updateTime, googleName: g.name, reviewerName: reviewer.name, reviewerPhotoUrl: reviewer.photo, deletedAt: null };
  // A reply on its way keeps its state; otherwise Google's reply is the truth (answered elsewhere, or removed there).
  if (replyChanged && !["queued", "publishing", "delete_queued", "deleting"].includes(s.replyState)) {
    set.replyComment = reply?.comment ?? null;
    set.replyUpdateTime = reply?.updateTime ?? null;
    set.replyState = reply ? "published" : "none";
    if (reply) set.autoPublishAt = null;
  }
  // An edited review drops to 1–3 stars: its pending auto-publish is cancelled.
  if (stars < 4) set.autoPublishAt = null;
  return { kind: "update", id: s.id, previous: reviewChanged ? { stars: s.stars, comment: s.comment, updateTime: s.updateTime } : null, set };
}

/** AI drafts for the newest new unanswered reviews (the rest keep their template draft until redrafted). */
async function draftNewReviews(env: Env, db: Db, userId: string, fresh: NewReviewRow[], settings: ReviewSettingsInput, business: ReplyBusiness, usage: UsageEventMessage[]) {
  const todo = fresh
    .filter((r) => !r.replyComment)
    .sort((a, b) => b.createTime.localeCompare(a.createTime))
    .slice(0, AI_DRAFTS_PER_SYNC);
  for (const row of todo) {
    const draft = await draftReply(env, userId, row as ReviewRow, settings, business, (event) => usage.push(event));
    if (draft.source === "ai") await saveDraft(db, row.id!, draft);
  }
}

async function alertNewReviews(env: Env, userId: string, fresh: NewReviewRow[], initial: boolean, now: Date) {
  const events: OwnEvent[] = [];
  for (const r of fresh) {
    // A first sync reads a business's whole history: only its recent reviews are news (alert and webhook).
    const recent = now.getTime() - Date.parse(r.createTime) <= INITIAL_ALERT_WINDOW_MS;
    if (initial && !recent) continue;
    const data = { review_id: r.googleReviewId, reviewer: r.reviewerName, stars: r.stars, comment: r.comment ?? null, location: r.locationName };
    events.push({ alert: null, webhook: "review.created", at: r.createTime, dedupeKey: `review_created:${userId}:${r.googleReviewId}`, data });
    events.push({ alert: r.stars >= 1 && r.stars <= 3 ? "review_low" : "review_new", webhook: null, at: r.createTime, dedupeKey: `${userId}:${r.googleReviewId}`, data });
  }
  await emitOwnEvents(env, userId, events);
}

// ---- drafting ----

export type Draft = { comment: string; source: "ai" | "template"; notice: string | null };

/** One reply draft: AI in the business's voice (metered, usage logged), a template when AI is not available. */
export async function draftReply(
  env: Env,
  userId: string,
  review: Pick<ReviewRow, "reviewerName" | "reviewerAnonymous" | "stars" | "comment">,
  settings: ReviewSettingsInput,
  business: ReplyBusiness,
  logUsage: (event: UsageEventMessage) => void,
): Promise<Draft> {
  const input = { reviewerName: review.reviewerName, anonymous: review.reviewerAnonymous, stars: review.stars, comment: review.comment };
  const outcome = await runGeneration(
    env,
    userId,
    {
      toolName: REVIEW_REPLY_TOOL,
      prompt: replyPrompt(input, business, settings),
      maxTokens: 400,
      temperature: 0.5,
      parse: parseReplyAnswer,
      template: () => templateReply(input, business, settings),
      retries: 0,
      onFailure: "template",
      notices: { noKey: TEMPLATE_DRAFT_NOTICE, refused: (message) => `${message} This reply was written from a template.`, unusable: UNUSABLE_DRAFT_NOTICE },
      settings: { stars: review.stars, tone: settings.tone },
      summary: (value) => ({ bytes: value.length }),
    },
    logUsage,
  );
  if (!outcome.ok) return { comment: templateReply(input, business, settings), source: "template", notice: UNUSABLE_DRAFT_NOTICE };
  return { comment: outcome.value, source: outcome.source, notice: outcome.notice };
}

/** Whether one reply draft fits the user's allowance and the daily ceiling (a refused on-demand draft answers 402). */
export async function draftFits(env: Env, db: Db, userId: string, review: Pick<ReviewRow, "reviewerName" | "reviewerAnonymous" | "stars" | "comment">, settings: ReviewSettingsInput, business: ReplyBusiness) {
  const prompt = replyPrompt({ reviewerName: review.reviewerName, anonymous: review.reviewerAnonymous, stars: review.stars, comment: review.comment }, business, settings);
  return fitsAllowance(env, db, userId, estimateMicro({ kind: "ai", model: postModel(env), prompt, maxTokens: 400 }));
}

// ---- publishing ----

export async function enqueuePublish(env: Env, reviewIds: string[], delaySeconds?: number): Promise<void> {
  for (let i = 0; i < reviewIds.length; i += 5) {
    await env.REVIEWS.send({ kind: "publish", reviewIds: reviewIds.slice(i, i + 5) }, delaySeconds ? { delaySeconds } : undefined);
  }
}

/** Google's refusal in plain words (shown on the review). */
export function refusalText(error: GoogleError): string {
  switch (error.kind) {
    case "refused":
      return `${REPLY_REFUSED_PREFIX}: ${error.message}`;
    case "token_refused":
      return "Google no longer accepts the connection: connect Google again, then publish the reply.";
    case "api_not_enabled":
    case "not_approved":
      return GOOGLE_ERROR_MESSAGES[error.kind]!;
    case "unavailable":
      return `Google did not answer after several tries (${error.message}). Publish it again in a few minutes.`;
  }
}

/**
 * One review of a publish message: claimed (queued → publishing, or delete_queued → deleting), sent to Google once,
 * settled. Google not answering puts it back in the queue state and answers "retry" (the consumer redelivers the
 * message with backoff); a refusal ends "failed" with Google's words.
 */
export async function publishOne(env: Env, reviewId: string): Promise<"done" | "retry"> {
  const db = getDb(env);
  const [claimed] = await claim(db, replyJob, [reviewId]);
  if (!claimed) return "done";
  const from = claimed.replyState as "publishing" | "deleting";
  const config = googleConfig(env);
  const connection = await findConnection(db, claimed.userId);
  if (!config || connection?.status !== "connected") {
    await settleReply(db, reviewId, from, { replyState: "failed", replyError: "Google is not connected: connect Google, then publish the reply again." });
    return "done";
  }
  try {
    if (from === "deleting") {
      await withAccessToken(env, db, connection, (token) => deleteReviewReply(config, token, claimed.googleName));
      const removed = await settleReply(db, reviewId, from, { replyState: "none", replyComment: null, replyUpdateTime: null, replyError: null, pendingReply: null });
      if (removed) await announce("client.figures-changed", { env, db, userId: claimed.userId, group: "reviews" });
      return "done";
    }
    const comment = claimed.pendingReply ?? claimed.draft ?? "";
    const answer = await withAccessToken(env, db, connection, (token) => updateReviewReply(config, token, claimed.googleName, comment));
    const settled = await settleReply(db, reviewId, from, { replyState: "published", replyComment: answer.comment, replyUpdateTime: answer.updateTime, replyError: null, pendingReply: null, autoPublishAt: null });
    if (settled) {
      await emitOwnEvents(env, claimed.userId, [
        {
          alert: null,
          webhook: "review.replied",
          at: answer.updateTime,
          dedupeKey: `review_replied:${claimed.id}:${answer.updateTime}`,
          data: { review_id: claimed.googleReviewId, reviewer: claimed.reviewerName, stars: claimed.stars, reply: answer.comment, location: claimed.locationName },
        },
      ]);
      await announce("review.answered", { env, db, reviewIds: [claimed.id] });
      await announce("client.figures-changed", { env, db, userId: claimed.userId, group: "reviews" });
    }
    return "done";
  } catch (error) {
    if (!(error instanceof GoogleError)) {
      await settleReply(db, reviewId, from, { replyState: from === "publishing" ? "queued" : "delete_queued" });
      throw error;
    }
    log.warn("reviews: reply refused", { reviewId, kind: error.kind, status: error.status, attempt: claimed.publishAttempts });
    if (error.kind === "unavailable" && claimed.publishAttempts < PUBLISH_MAX_ATTEMPTS) {
      await settleReply(db, reviewId, from, { replyState: from === "publishing" ? "queued" : "delete_queued", replyError: `Google did not answer (${error.message}); trying again.` });
      return "retry";
    }
    await settleReply(db, reviewId, from, { replyState: "failed", replyError: refusalText(error) });
    return "done";
  }
}

export async function publishReplies(env: Env, reviewIds: string[]): Promise<ReviewJobOutcome> {
  let retry = false;
  // One after another: a few per message, and Google's per-user quota is small.
  for (const id of reviewIds) if ((await publishOne(env, id)) === "retry") retry = true;
  return retry ? { kind: "retry", reason: "Google did not answer" } : { kind: "done" };
}

export async function failRepliesForDeadLetter(env: Env, reviewIds: string[]): Promise<void> {
  await failReplies(getDb(env), reviewIds, "Publishing failed on our side after several tries. Publish the reply again.");
}

/**
 * Due auto-publishes: each draft is checked before it is queued. One that carries a link, an email address or a phone
 * number that is not the business's own (a review's text reaches the model) stays a draft for a person, said on the
 * card; the others are claimed with exactly the draft that was checked.
 */
async function autoPublishDue(db: Db, at: string): Promise<string[]> {
  const due = await dueAutoPublish(db, at);
  const contacts = new Map<string, Awaited<ReturnType<typeof replyBusinessOf>>>();
  const claimed: string[] = [];
  for (const row of due) {
    if (!contacts.has(row.userId)) contacts.set(row.userId, await replyBusinessOf(db, row.userId));
    const foreign = foreignContacts(row.draft, contacts.get(row.userId)!);
    if (foreign.length > 0) {
      log.warn("reviews: auto-publish held", { reviewId: row.id, found: foreign.length });
      await holdAutoPublish(db, row.id, row.draft, AUTO_PUBLISH_HELD_NOTICE, at);
    } else if ((await claim(db, autoPublishJob, [row.id, row.draft, at], { now: at })).length > 0) claimed.push(row.id);
  }
  return claimed;
}

// ---- the cron ----

export async function enqueueSyncs(env: Env, userIds: string[]): Promise<void> {
  for (let i = 0; i < userIds.length; i += SYNC_USERS_PER_MESSAGE) await env.REVIEWS.send({ kind: "sync", userIds: userIds.slice(i, i + SYNC_USERS_PER_MESSAGE) });
}

/** Every 5 minutes: connected businesses due a sync (every 6 hours each), due auto-publishes, stale publish claims. */
export async function sweepReviews(env: Env, now = new Date()): Promise<{ synced: number; autoPublished: number }> {
  try {
    const db = getDb(env);
    const at = now.toISOString();
    const due = googleConfig(env) ? await claimDueSyncs(db, now, new Date(now.getTime() + SYNC_EVERY_MS).toISOString()) : [];
    await enqueueSyncs(env, due);
    const auto = await autoPublishDue(db, at);
    const stale = await staleReplyClaims(db, new Date(now.getTime() - STALE_CLAIM_MS).toISOString());
    await enqueuePublish(env, [...auto, ...stale]);
    return { synced: due.length, autoPublished: auto.length };
  } catch (error) {
    log.error("reviews: sweep failed", {}, error);
    return { synced: 0, autoPublished: 0 };
  }
}
