// The agency's command center (issue 41): the attention queue's items, one per client, kind and subject; the clients
// view's rows and each admin's view settings.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps, updatedAt } from "../../platform/db/columns";
import { userId, userIdKey, users } from "../../platform/auth/tables";
import { ATTENTION_KINDS, ATTENTION_STATUSES } from "./rules/attention";

/**
 * Something about a client that needs a person. Made once per (client, kind, subject): the subject is what it is
 * about (a review's id, a guard change's id, a location and the time it lost its verification, …), so a cause that
 * comes back later is a new item. `closed` when the cause is gone (the review answered, the change decided), `done`
 * or `snoozed` by an admin (who and when kept).
 */
export const attentionItems = sqliteTable(
  "attention_items",
  {
    id: id(),
    userId: userId(),
    kind: text("kind", { enum: ATTENTION_KINDS }).notNull(),
    subject: text("subject").notNull(),
    /** JSON: what the queue shows of it (the review's stars and words, the field and both values, …). */
    data: text("data").notNull().default("{}"),
    happenedAt: text("happened_at").notNull(),
    status: text("status", { enum: ATTENTION_STATUSES }).notNull().default("open"),
    snoozedUntil: text("snoozed_until"),
    doneBy: text("done_by"),
    doneAt: text("done_at"),
    closedAt: text("closed_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("attention_items_unique").on(t.userId, t.kind, t.subject), index("attention_items_status_idx").on(t.status, t.happenedAt), index("attention_items_user_idx").on(t.userId, t.status)],
);

/**
 * A client's row on the clients view, kept current by the capabilities' events (client.figures-changed): each group of
 * figures as its capability reads it (JSON of that capability's `*ClientFigures`, null until first read), the account
 * manager, and the health mark worked out when a group or the client's attention items change. The view is one indexed
 * read of these rows, whatever the number of clients.
 */
export const clientSummaries = sqliteTable(
  "client_summaries",
  {
    userId: userIdKey(),
    /** The admin who manages the client ("my clients"); null: nobody yet. */
    managerId: text("manager_id").references(() => users.id, { onDelete: "set null" }),
    reviews: text("reviews"),
    rank: text("rank"),
    citations: text("citations"),
    ai: text("ai"),
    posts: text("posts"),
    report: text("report"),
    usage: text("usage"),
    /** 0 fine, 1 watch, 2 act (rules/health.ts), and the reasons in words. */
    health: integer("health").notNull().default(0),
    healthScore: integer("health_score").notNull().default(0),
    healthReasons: text("health_reasons").notNull().default("[]"),
    /** When every group was last read together (the cron's backfill of a client no event has touched). */
    refreshedAt: text("refreshed_at"),
    updatedAt: updatedAt(),
  },
  (t) => [index("client_summaries_health_idx").on(t.healthScore), index("client_summaries_manager_idx").on(t.managerId)],
);

/** An admin's clients view: the columns hidden and the views saved (each a name and its sort, filter, search, manager). */
export const agencyViewSettings = sqliteTable("agency_view_settings", {
  userId: userIdKey(),
  hiddenColumns: text("hidden_columns").notNull().default("[]"),
  views: text("views").notNull().default("[]"),
  updatedAt: updatedAt(),
});
