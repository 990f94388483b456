// SEO reports: one per prospect, and the views of its shared page.
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jobColumns } from "../../platform/jobs/columns";
import { id, createdAt, belongsTo } from "../../platform/db/columns";
import { REPORT_STATUSES } from "./rules/status";
import { prospects } from "../prospects/tables";
import { users } from "../../platform/auth/tables";

export const seoReports = sqliteTable(
  "seo_reports",
  {
    id: id(),
    prospectId: belongsTo("prospect_id", () => prospects.id),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    contentGenerated: integer("content_generated", { mode: "boolean" }).notNull().default(false),
    questions: text("questions").notNull().default(""),
    gmbArticles: text("gmb_articles"),
    blogStructures: text("blog_structures"),
    facebookPosts: text("facebook_posts"),
    seoPotential: real("seo_potential"),
    metaSeo: text("meta_seo"),
    perfectAd: text("perfect_ad"),
    /** Whole model answer's potential block: score, keyword_potential, business_relevance, competition. */
    potential: text("potential"),
    ...jobColumns(REPORT_STATUSES, "draft"),
    source: text("source", { enum: ["ai", "template"] }),
    lastError: text("last_error"),
    generatedAt: text("generated_at"),
    /** Bumped on every content change; part of the shared-report cache key and ETag. */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index("seo_reports_created_idx").on(t.createdAt),
    uniqueIndex("seo_reports_prospect_unique").on(t.prospectId),
    index("seo_reports_status_idx").on(t.status, t.claimedAt),
  ],
);

/** View tracking of shared reports (issue 10): one row per (visit, event, section), so a repeat beacon is ignored. */
export const reportEvents = sqliteTable(
  "report_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    reportId: belongsTo("report_id", () => seoReports.id),
    visitId: text("visit_id").notNull(),
    event: text("event", { enum: ["opened", "section_viewed", "print", "chat_started"] }).notNull(),
    /** The section id for section_viewed, '' otherwise (so the unique index de-duplicates every event). */
    section: text("section").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("report_events_visit_unique").on(t.reportId, t.visitId, t.event, t.section),
    index("report_events_report_idx").on(t.reportId, t.createdAt),
  ],
);

/** Per-report open counts, kept by a trigger on report_events (migration report_view_stats_trigger). */
export const reportViewStats = sqliteTable(
  "report_view_stats",
  {
    reportId: text("report_id")
      .primaryKey()
      .references(() => seoReports.id, { onDelete: "cascade" }),
    opens: integer("opens").notNull().default(0),
    firstOpenedAt: text("first_opened_at"),
    lastOpenedAt: text("last_opened_at"),
  },
  (t) => [index("report_view_stats_last_idx").on(t.lastOpenedAt)],
);
