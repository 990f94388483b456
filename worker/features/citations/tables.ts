// The Citation Tracker: scans, each source's check, and the businesses re-scanned monthly.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { UNIT_STATUSES, unitColumns } from "../../platform/jobs/columns";
import { id, createdAt, belongsTo } from "../../platform/db/columns";
import { businessColumns } from "../prospects/tables";

/**
 * Citation Tracker scans (issue 27): one business (the user's own, or a prospect) looked up on every source at one
 * time. `business` is JSON {expected, competitors, name} as it was looked up; each source's lookup lives in
 * citation_checks. `owner_key` ("own:<userId>" or "prospect:<id>") groups a business's history.
 */
export const citationScans = sqliteTable(
  "citation_scans",
  {
    id: id(),
    ...businessColumns(),
    ownerKey: text("owner_key").notNull(),
    business: text("business").notNull(),
    status: text("status", { enum: ["queued", "running", "done"] }).notNull().default("queued"),
    trigger: text("trigger", { enum: ["manual", "cron"] }).notNull().default("manual"),
    estimateSearches: integer("estimate_searches").notNull(),
    estimateMicro: integer("estimate_micro").notNull(),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("citation_scans_owner_idx").on(t.ownerKey, t.createdAt), index("citation_scans_user_idx").on(t.userId, t.kind, t.createdAt)],
);

/**
 * One source of a scan: claimed by compare-and-set per delivery; `progress` keeps the searches that already answered
 * (so a retried lookup never searches twice); `result` is the source's verdict with its evidence (JSON).
 */
export const citationChecks = sqliteTable(
  "citation_checks",
  {
    scanId: belongsTo("scan_id", () => citationScans.id),
    source: text("source").notNull(),
    ...unitColumns(UNIT_STATUSES, "pending"),
    progress: text("progress"),
    result: text("result"),
  },
  (t) => [primaryKey({ columns: [t.scanId, t.source] }), index("citation_checks_status_idx").on(t.status, t.claimedAt)],
);

/** Businesses whose citations the cron re-scans monthly: `last_scan_at` moves by compare-and-set, so a month scans once. */
export const citationTracking = sqliteTable(
  "citation_tracking",
  {
    ownerKey: text("owner_key").primaryKey(),
    ...businessColumns(),
    lastScanAt: text("last_scan_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("citation_tracking_due_idx").on(t.lastScanAt)],
);
