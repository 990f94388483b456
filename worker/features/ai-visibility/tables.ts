// AI Visibility: the questions, the scans and each asked question's answer.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jobColumns } from "../../platform/jobs/columns";
import { id, createdAt, belongsTo } from "../../platform/db/columns";
import { businessColumns } from "../prospects/tables";

/**
 * AI Visibility questions (issue 29): what a business is asked about on AI assistants, the user's own (owner_key
 * "own:<userId>") or a prospect's ("prospect:<id>", kept by the admin in `user_id`). Tracked questions are asked again
 * weekly by the cron.
 */
export const aiQuestions = sqliteTable(
  "ai_questions",
  {
    id: id(),
    ownerKey: text("owner_key").notNull(),
    ...businessColumns(),
    text: text("text").notNull(),
    tracked: integer("tracked", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("ai_questions_owner_idx").on(t.ownerKey, t.createdAt), index("ai_questions_tracked_idx").on(t.tracked, t.ownerKey)],
);

/**
 * One AI Visibility scan: every question × engine × sample an `ai_answers` row. `business` is JSON (name, website,
 * phone, Google profile, category, place) and `competitors` the local competitor set (Google Maps plus the audit's),
 * both as they were when the scan was made; `questions` and `engines` are JSON snapshots. `summary` keeps the figures
 * computed when the last answer landed; `week` (YYYY-Www) is set on weekly scans, unique per business, so a double
 * cron run asks once.
 */
export const aiScans = sqliteTable(
  "ai_scans",
  {
    id: id(),
    ownerKey: text("owner_key").notNull(),
    ...businessColumns(),
    business: text("business").notNull(),
    competitors: text("competitors").notNull().default("[]"),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    trigger: text("trigger", { enum: ["manual", "weekly"] }).notNull().default("manual"),
    week: text("week"),
    samples: integer("samples").notNull(),
    engines: text("engines").notNull(),
    questions: text("questions").notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    costMicro: integer("cost_micro").notNull().default(0),
    summary: text("summary"),
    actions: text("actions"),
    actionsSource: text("actions_source", { enum: ["ai", "template"] }),
    /** Set once by whoever computes the figures (compare-and-set), so the last two answers finishing together finish once. */
    finishingAt: text("finishing_at"),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("ai_scans_owner_idx").on(t.ownerKey, t.createdAt), uniqueIndex("ai_scans_week_unique").on(t.ownerKey, t.week), index("ai_scans_status_idx").on(t.status, t.createdAt)],
);

/**
 * One asked question on one engine (one sample): claimed by compare-and-set before its call (queued → claimed → ok |
 * failed). The whole answer (text and sources) is in R2 under `r2_key`; D1 keeps what the figures need: the businesses
 * named (JSON, in order), the cited domains (JSON) and whether the business's own site or profile was cited.
 */
export const aiAnswers = sqliteTable(
  "ai_answers",
  {
    id: id(),
    scanId: belongsTo("scan_id", () => aiScans.id),
    questionId: text("question_id").notNull(),
    engine: text("engine").notNull(),
    sample: integer("sample").notNull(),
    ...jobColumns(["queued", "claimed", "ok", "failed"], "queued"),
    model: text("model"),
    r2Key: text("r2_key"),
    named: text("named"),
    domains: text("domains"),
    ownCited: integer("own_cited", { mode: "boolean" }).notNull().default(false),
    error: text("error"),
    askedAt: text("asked_at"),
  },
  (t) => [index("ai_answers_scan_idx").on(t.scanId, t.status), index("ai_answers_claim_idx").on(t.status, t.claimedAt)],
);
