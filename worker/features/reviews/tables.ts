// Google reviews: the reviews, their earlier versions and each user's settings and sync state.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, createdAt, updatedAt, belongsTo } from "../../platform/db/columns";
import { userId, userIdKey } from "../../platform/auth/tables";

/**
 * Google reviews of a user's business (issue 28), kept once by Google's review id: an edit updates the row in place
 * (the version it replaced goes to review_history). `reply_*` is what Google shows; `draft_*` what the owner is about
 * to publish. `reply_state` moves by compare-and-set (queued → publishing → published | failed; delete_queued →
 * deleting → none), so a redelivered publish message does nothing twice.
 */
export const reviews = sqliteTable(
  "reviews",
  {
    id: id(),
    userId: userId(),
    locationName: text("location_name").notNull(),
    googleReviewId: text("google_review_id").notNull(),
    /** Google's resource name (accounts/…/locations/…/reviews/…): what updateReply and deleteReply take. */
    googleName: text("google_name").notNull(),
    reviewerName: text("reviewer_name").notNull(),
    reviewerPhotoUrl: text("reviewer_photo_url"),
    reviewerAnonymous: integer("reviewer_anonymous", { mode: "boolean" }).notNull().default(false),
    stars: integer("stars").notNull(),
    comment: text("comment"),
    createTime: text("create_time").notNull(),
    updateTime: text("update_time").notNull(),
    replyComment: text("reply_comment"),
    replyUpdateTime: text("reply_update_time"),
    draft: text("draft"),
    draftSource: text("draft_source", { enum: ["ai", "template", "owner"] }),
    draftNotice: text("draft_notice"),
    replyState: text("reply_state", { enum: ["none", "queued", "publishing", "published", "failed", "delete_queued", "deleting"] }).notNull().default("none"),
    /** The text on its way to Google (set when queued). */
    pendingReply: text("pending_reply"),
    replyError: text("reply_error"),
    publishAttempts: integer("publish_attempts").notNull().default(0),
    /** Auto-publish's due time (4–5 stars only, when the owner turned it on). */
    autoPublishAt: text("auto_publish_at"),
    /** Google no longer lists it (the reviewer removed it). */
    deletedAt: text("deleted_at"),
    firstSeenAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("reviews_user_google_unique").on(t.userId, t.googleReviewId),
    index("reviews_user_time_idx").on(t.userId, t.createTime),
    index("reviews_state_idx").on(t.replyState, t.autoPublishAt),
    /** The attention queue's low reviews waiting for a reply (issue 41): read every few minutes across every client. */
    index("reviews_low_unanswered_idx")
      .on(t.createTime)
      .where(sql`stars <= 3 and reply_comment is null and deleted_at is null`),
  ],
);

/** Earlier versions of an edited review (what the reviewer wrote before), newest last. */
export const reviewHistory = sqliteTable(
  "review_history",
  {
    id: id(),
    reviewId: belongsTo("review_id", () => reviews.id),
    stars: integer("stars").notNull(),
    comment: text("comment"),
    updateTime: text("update_time").notNull(),
    recordedAt: createdAt(),
  },
  (t) => [uniqueIndex("review_history_version_unique").on(t.reviewId, t.updateTime)],
);

/** A user's review settings and sync state: the reply voice, auto-publish, and when the cron reads Google next. */
export const reviewSettings = sqliteTable(
  "review_settings",
  {
    userId: userIdKey(),
    tone: text("tone", { enum: ["friendly", "professional", "warm", "brief"] }).notNull().default("friendly"),
    signature: text("signature").notNull().default(""),
    autoPublish: integer("auto_publish", { mode: "boolean" }).notNull().default(false),
    autoPublishDelayHours: integer("auto_publish_delay_hours").notNull().default(24),
    /** The cron's due time; moved by compare-and-set before a sync is enqueued, so a period syncs once. */
    nextSyncAt: text("next_sync_at"),
    /** A Check now on its way (set by compare-and-set when queued, cleared when the sync ends): one in flight. */
    syncClaimedAt: text("sync_claimed_at"),
    /** When the last Check now was accepted: the next waits SYNC_MIN_INTERVAL_MS. */
    syncRequestedAt: text("sync_requested_at"),
    lastSyncAt: text("last_sync_at"),
    lastSyncError: text("last_sync_error"),
    googleAverage: real("google_average"),
    googleTotal: integer("google_total"),
    updatedAt: updatedAt(),
  },
  (t) => [index("review_settings_due_idx").on(t.nextSyncAt)],
);
