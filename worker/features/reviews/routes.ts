// /api/reviews (issue 28): the review inbox of the user's own business. Read, check now, draft, publish or delete a
// reply, and the settings. Every route is the signed-in user's own data (but for publishing a reply, which an acting
// admin may do for any client from the attention queue); viewing as someone is read-only (requireUser refuses writes). An on-demand AI draft past the allowance answers 402 before any call.
import { Hono, type Context } from "hono";
import { actsAsAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { findReview, findReviewSettings, historyOf, queueReply, queueReplyDelete, saveReviewSettings, settingsOfRow, type ReviewRow } from "./queries";
import { ReplyInput, ReviewListQuery, ReviewSettingsInput } from "./rules/reviews";
import { apiError, ErrorCode } from "../../platform/errors";
import { paymentRequired } from "../../platform/http/paid-run";
import { sendUsageEvent } from "../../platform/metering/usage-log";
import { enqueuePublish } from "./inbox";
import { draftOnDemand, requestSync, ReviewErrorCode } from "./service";
import { buildInbox, reviewJson } from "./view";
import { validate, validId } from "../../platform/validate";
import { paidFeature } from "../../platform/metering/guard";

export const REVIEW_NOT_FOUND = "Review not found";
const REPLY_BUSY = "A reply to this review is on its way to Google already. Wait a moment, then try again.";

async function ownReview(c: Context<AppEnv>, id: string): Promise<ReviewRow | null> {
  const row = await findReview(getDb(c.env), id);
  return row && row.userId === c.get("subject").id ? row : null;
}

/** A review the caller may answer: its owner's, or any client's for an acting admin (the attention queue, issue 41). */
async function answerableReview(c: Context<AppEnv>, id: string): Promise<ReviewRow | null> {
  const row = await findReview(getDb(c.env), id);
  return row && (row.userId === c.get("subject").id || actsAsAdmin(c)) ? row : null;
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
    const asked = await requestSync(c.env, getDb(c.env), c.get("subject").id);
    if (asked.kind === "not_connected") return apiError(c, 409, ReviewErrorCode.notConnected, asked.message);
    if (asked.kind === "wait") {
      c.header("Retry-After", String(asked.retryAfterSeconds));
      return c.json({ error: { code: asked.code, message: asked.message, retryAt: asked.retryAt } }, 429);
    }
    return c.json({ queued: true }, 202);
  })

  .post("/:id/draft", paidFeature, validId(REVIEW_NOT_FOUND), async (c) => {
    const row = await ownReview(c, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, REVIEW_NOT_FOUND);
    const drafted = await draftOnDemand(c.env, getDb(c.env), c.get("subject").id, row, (event) => sendUsageEvent(c, event));
    if (!drafted.ok) return paymentRequired(c, drafted.refusal);
    return c.json({ review: await answer(c, drafted.review) });
  })

  .put("/:id/reply", validId(REVIEW_NOT_FOUND), validate("json", ReplyInput), async (c) => {
    const row = await answerableReview(c, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, REVIEW_NOT_FOUND);
    const queued = await queueReply(getDb(c.env), row.id, c.req.valid("json").comment);
    if (!queued) return apiError(c, 409, ReviewErrorCode.replyBusy, REPLY_BUSY);
    await enqueuePublish(c.env, [row.id]);
    return c.json({ review: await answer(c, queued) }, 202);
  })

  .delete("/:id/reply", validId(REVIEW_NOT_FOUND), async (c) => {
    const row = await ownReview(c, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, REVIEW_NOT_FOUND);
    if (!row.replyComment) return apiError(c, 409, ReviewErrorCode.noReply, "This review has no published reply to delete.");
    const queued = await queueReplyDelete(getDb(c.env), row.id);
    if (!queued) return apiError(c, 409, ReviewErrorCode.replyBusy, REPLY_BUSY);
    await enqueuePublish(c.env, [row.id]);
    return c.json({ review: await answer(c, queued) }, 202);
  });
