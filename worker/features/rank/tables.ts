// Rank: the Local Search Grid's scans and points, tracked keywords, their checks, alerts and digests.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { UNIT_STATUSES, jobColumns, unitColumns } from "../../platform/jobs/columns";
import { id, createdAt, belongsTo } from "../../platform/db/columns";
import { businessColumns } from "../prospects/tables";
import { userId } from "../../platform/auth/tables";

/**
 * Local Search Grid scans (issue 19): one business (the user's own, or a prospect) and one keyword searched from a
 * square of points. The business as it was searched (name, area, place id, centre) is kept as JSON; each point lives
 * in grid_points. `share_token` is 128 random bits (hex) for the public page; `version` changes whenever a point
 * lands, so the shared page's cache key moves with it.
 */
export const gridScans = sqliteTable(
  "grid_scans",
  {
    id: id(),
    ...businessColumns(),
    /** JSON RankBusiness (worker/features/rank/rules/view.ts). */
    business: text("business").notNull(),
    keyword: text("keyword").notNull(),
    size: integer("size").notNull(),
    radiusMiles: real("radius_miles").notNull(),
    zoom: integer("zoom").notNull(),
    status: text("status", { enum: ["queued", "running", "done"] }).notNull().default("queued"),
    estimateSearches: integer("estimate_searches").notNull(),
    estimateMicro: integer("estimate_micro").notNull(),
    shareToken: text("share_token").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    uniqueIndex("grid_scans_share_token_unique").on(t.shareToken),
    index("grid_scans_user_idx").on(t.userId, t.kind, t.keyword, t.createdAt),
    index("grid_scans_prospect_idx").on(t.prospectId, t.keyword, t.createdAt),
  ],
);

/**
 * One point of a scan: claimed once per delivery (compare-and-set), its result stored as soon as its search
 * answers. `retrying` and `failed` both show as failed (never as "not ranked"); `retrying` goes out again.
 * `rank` is null for a completed search without the business in the top 20. `top3` keeps the top three listings
 * (place id, title, position) the competitors are counted from.
 */
export const gridPoints = sqliteTable(
  "grid_points",
  {
    scanId: belongsTo("scan_id", () => gridScans.id),
    idx: integer("idx").notNull(),
    row: integer("row").notNull(),
    col: integer("col").notNull(),
    lat: real("lat").notNull(),
    lng: real("lng").notNull(),
    ...unitColumns(UNIT_STATUSES, "pending"),
    rank: integer("rank"),
    /** JSON [{position, place_id, title}] of the top three listings. */
    top3: text("top3"),
  },
  (t) => [primaryKey({ columns: [t.scanId, t.idx] }), index("grid_points_status_idx").on(t.status, t.claimedAt)],
);

/**
 * Tracked keywords (the Local Rank Tracker): one business and keyword, checked daily or weekly by the cron.
 * `owner_key` ("own:<userId>" or "prospect:<id>") keeps one row per business and keyword. `last_check_at` is when
 * its last check was enqueued: the cron moves it by compare-and-set before sending, so a period enqueues once.
 */
export const trackedKeywords = sqliteTable(
  "tracked_keywords",
  {
    id: id(),
    ...businessColumns(),
    ownerKey: text("owner_key").notNull(),
    /** JSON RankBusiness. */
    business: text("business").notNull(),
    /** The website the organic position is looked up by; null: organic is "not in the top 20". */
    website: text("website"),
    keyword: text("keyword").notNull(),
    frequency: text("frequency", { enum: ["daily", "weekly"] }).notNull().default("daily"),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    lastCheckAt: text("last_check_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("tracked_keywords_owner_keyword_unique").on(t.ownerKey, t.keyword),
    index("tracked_keywords_user_idx").on(t.userId, t.kind, t.createdAt),
    index("tracked_keywords_due_idx").on(t.paused, t.lastCheckAt),
  ],
);

/**
 * One check of a tracked keyword: the map pack and the organic position, each stored as soon as its search answers
 * (`*_status` pending | found | not_found | failed), so a retried check never searches a part twice.
 */
export const keywordChecks = sqliteTable(
  "keyword_checks",
  {
    id: id(),
    keywordId: belongsTo("keyword_id", () => trackedKeywords.id),
    ...jobColumns(UNIT_STATUSES, "pending"),
    mapStatus: text("map_status", { enum: ["pending", "found", "not_found", "failed"] }).notNull().default("pending"),
    mapRank: integer("map_rank"),
    organicStatus: text("organic_status", { enum: ["pending", "found", "not_found", "failed"] }).notNull().default("pending"),
    organicRank: integer("organic_rank"),
    reason: text("reason"),
    createdAt: createdAt(),
    checkedAt: text("checked_at"),
  },
  (t) => [index("keyword_checks_keyword_idx").on(t.keywordId, t.createdAt), index("keyword_checks_status_idx").on(t.status, t.claimedAt)],
);

/** A check that is an alert (a drop of 3+ positions, or leaving the top 3), for the dashboard and the daily digest. */
export const rankAlerts = sqliteTable(
  "rank_alerts",
  {
    checkId: text("check_id")
      .primaryKey()
      .references(() => keywordChecks.id, { onDelete: "cascade" }),
    keywordId: belongsTo("keyword_id", () => trackedKeywords.id),
    userId: userId(),
    /** JSON AlertReason[]. */
    reasons: text("reasons").notNull(),
    /** Map-pack positions before and after (null: not in the top 20). */
    fromRank: integer("from_rank"),
    toRank: integer("to_rank"),
    createdAt: createdAt(),
    mailedAt: text("mailed_at"),
  },
  (t) => [index("rank_alerts_user_idx").on(t.userId, t.mailedAt)],
);

/** One alert digest per user and UTC day: the row is the claim, so two cron runs never mail twice. */
export const rankAlertDigests = sqliteTable(
  "rank_alert_digests",
  {
    userId: userId(),
    day: text("day").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
