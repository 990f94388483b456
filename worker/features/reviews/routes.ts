// /api/reviews (issue 28): the review inbox of the user's own business. Read, check now, draft, publish or delete a
// reply, and the settings. Every route is the signed-in user's own data; viewing as someone is read-only (requireUser
// refuses writes). An on-demand AI draft past the allowance answers 402 before any call.
import { Hono, type Context } from "hono";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { findConnection } from "../integrations";
import { claimManualSync, findReview, findReviewSettings, releaseSyncClaim, historyOf, queueReply, queueReplyDelete, recordSync, replyBusinessOf, saveDraft, saveReviewSettings, settingsOfRow, type ReviewRow } from "./queries";
import { ReplyInput, REVIEWS_CONNECT_HINT, REVIEWS_RECONNECT_HINT, ReviewListQuery, ReviewSettingsInput } from "./rules/reviews";
import { apiError, ErrorCode } from "../../platform/errors";
import { sendUsageEvent } from "../../platform/metering/usage-log";
import { googleConfig } from "../../platform/providers/google";
import { aiConfigured } from "../../platform/providers/ai";
import { draftFits, draftReply, enqueuePublish, SYNC_CLAIM_STALE_MS, SYNC_MIN_INTERVAL_MS } from "./inbox";
import { buildInbox, reviewJson } from "./view";
import { validate, validId } from "../../platform/validate";
import { paidFeature } from "../../platform/metering/guard";

export const REVIEW_NOT_FOUND = "Review not found";
export const ReviewErrorCode = { notConnected: "google_not_connected", replyBusy: "reply_in_progress", noReply: "no_reply", syncInProgress: "sync_in_progress", syncTooSoon: "sync_too_soon" } as const;

async function ownReview(c: Context<AppEnv>, id: string): Promise<ReviewRow | null> {
  const row = await findReview(getDb(c.env), id);
  return row && row.userId === c.get("subject").id ? row : null;
}

async function answer(c: Context<AppEnv>, row: ReviewRow) {
  return reviewJson(row, await historyOf(getDb(c.env), [row.id]));
}

export const reviewRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", validate("query", ReviewListQuery), async (c) => {
    const { filter } = c.req.valid("query");
    return c.json(await buildInbox(c.env, getDb(c.env), c.get("subject").id, filter ?? "all"));
  })

  .get("/settings", async (c) => {
    return c.json({ settings: settingsOfRow(await findReviewSettings(getDb(c.env), c.get("subject").id)) });
  })

  .put("/settings", validate("json", ReviewSettingsInput), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("subject").id;
    await saveReviewSettings(db, userId, c.req.valid("json"));
    return c.json({ settings: settingsOfRow(await findReviewSettings(db, userId)) });
  })

  .post("/sync", async (c) => {
    const db = getDb(c.env);
    const userId = c.get("subject").id;
    const connection = googleConfig(c.env) ? await findConnection(db, userId) : null;
    if (connection?.status !== "connected") {
      return apiError(c, 409, ReviewErrorCode.notConnected, connection?.status === "needs_reconnect" ? REVIEWS_RECONNECT_HINT : REVIEWS_CONNECT_HINT);
    }
    const now = Date.now();
    const refused = await claimManualSync(db, userId, new Date(now).toISOString(), new Date(now - SYNC_MIN_INTERVAL_MS).toISOString(), new Date(now - SYNC_CLAIM_STALE_MS).toISOString());
    if (refused) {
      const inFlight = refused.syncClaimedAt !== null && Date.parse(refused.syncClaimedAt) > now - SYNC_CLAIM_STALE_MS;
      const nextAt = Math.max(refused.syncRequestedAt ? Date.parse(refused.syncRequestedAt) + SYNC_MIN_INTERVAL_MS : now, now + 1000);
      const retryAt = new Date(nextAt).toISOString();
      const minutes = Math.max(1, Math.ceil((nextAt - now) / 60_000));
      const when = `You can check again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`;
      c.header("Retry-After", String(Math.ceil((nextAt - now) / 1000)));
      return c.json(
        {
          error: inFlight
            ? { code: ReviewErrorCode.syncInProgress, message: `Your reviews are being read from Google right now: they show here in a moment. ${when}`, retryAt }
            : { code: ReviewErrorCode.syncTooSoon, message: `Your reviews were checked a moment ago. ${when}`, retryAt },
        },
        429,
      );
    }
    try {
      await c.env.REVIEWS.send({ kind: "sync", userIds: [userId] });
    } catch (error) {
      await releaseSyncClaim(db, userId);
      throw error;
    }
    await recordSync(db, userId, { lastSyncError: null });
    return c.json({ queued: true }, 202);
  })

  .post("/:id/draft", paidFeature, validId(REVIEW_NOT_FOUND), async (c) => {
    const row = await ownReview(c, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, REVIEW_NOT_FOUND);
    const db = getDb(c.env);
    const userId = c.get("subject").id;
    const [settingsRow, business] = await Promise.all([findReviewSettings(db, userId), replyBusinessOf(db, userId)]);
    const settings = settingsOfRow(settingsRow);
    if (aiConfigured(c.env)) {
      const fits = await draftFits(c.env, db, userId, row, settings, business);
      if (!fits.allowed) {
        return apiError(c, 402, ErrorCode.budgetExceeded, `An AI draft needs a little of your AI allowance, and this month's is used up${fits.allowanceLeftUsd === null ? "" : ` ($${fits.allowanceLeftUsd.toFixed(2)} left)`}. Edit the current draft yourself, or draft again next month.`);
      }
    }
    const draft = await draftReply(c.env, userId, row, settings, business, (event) => sendUsageEvent(c, event));
    await saveDraft(db, row.id, draft);
    return c.json({ review: await answer(c, (await findReview(db, row.id))!) });
  })

  .put("/:id/reply", validId(REVIEW_NOT_FOUND), validate("json", ReplyInput), async (c) => {
    const row = await ownReview(c, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, REVIEW_NOT_FOUND);
    const queued = await queueReply(getDb(c.env), row.id, c.req.valid("json").comment);
    if (!queued) return apiError(c, 409, ReviewErrorCode.replyBusy, "A reply to this review is on its way to Google already. Wait a moment, then try again.");
    await enqueuePublish(c.env, [row.id]);
    return c.json({ review: await answer(c, queued) }, 202);
  })

  .delete("/:id/reply", validId(REVIEW_NOT_FOUND), async (c) => {
    const row = await ownReview(c, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, REVIEW_NOT_FOUND);
    if (!row.replyComment) return apiError(c, 409, ReviewErrorCode.noReply, "This review has no published reply to delete.");
    const queued = await queueReplyDelete(getDb(c.env), row.id);
    if (!queued) return apiError(c, 409, ReviewErrorCode.replyBusy, "A reply to this review is on its way to Google already. Wait a moment, then try again.");
    await enqueuePublish(c.env, [row.id]);
    return c.json({ review: await answer(c, queued) }, 202);
  });
