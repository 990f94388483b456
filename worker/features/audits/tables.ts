// Local-SEO audits: the audit, its steps and the chats' block of a finished audit.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { unitColumns } from "../../platform/jobs/columns";
import { id, createdAt, belongsTo } from "../../platform/db/columns";
import { prospects } from "../prospects/tables";
import { users } from "../../platform/auth/tables";

/**
 * Local-SEO audits (issue 18): one business (a prospect, or a user's own business profile) at one time. The subject
 * is what was searched for (JSON, kept as it was then); each step's result lives in audit_steps, and the checks and
 * score are computed from those when read (`overall` is kept for the history list).
 */
export const audits = sqliteTable(
  "audits",
  {
    id: id(),
    kind: text("kind", { enum: ["prospect", "own"] }).notNull(),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    /** The owner for an own-business audit; the admin who started it for a prospect's. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** JSON: name, website, keyword, area, phone, address. */
    subject: text("subject").notNull(),
    status: text("status", { enum: ["queued", "running", "done"] }).notNull().default("queued"),
    overall: integer("overall"),
    /** JSON {placeId} or {mapsUrl}: the listing an admin picked from the candidates. */
    listingChoice: text("listing_choice"),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("audits_prospect_idx").on(t.prospectId, t.createdAt), index("audits_user_idx").on(t.userId, t.kind, t.createdAt)],
);

/** One step of an audit: claimed once (compare-and-set), its result stored as soon as it finishes. */
export const auditSteps = sqliteTable(
  "audit_steps",
  {
    auditId: belongsTo("audit_id", () => audits.id),
    step: text("step", { enum: ["find", "fetch", "speed", "rank"] }).notNull(),
    ...unitColumns(["pending", "running", "done", "failed", "skipped"], "pending"),
    /** JSON: the step's result (see worker/features/audits/steps.ts). */
    result: text("result"),
  },
  (t) => [primaryKey({ columns: [t.auditId, t.step] })],
);

/**
 * The chats' system-prompt block of a finished audit (issue 26), written once from its steps: a chat message reads
 * this one row instead of the audit's steps. Valid while `auditFinishedAt` is the audit's `finished_at` (a re-run
 * of steps clears that, and sets a new one when it is done again).
 */
export const auditChatBlocks = sqliteTable("audit_chat_blocks", {
  auditId: text("audit_id")
    .primaryKey()
    .references(() => audits.id, { onDelete: "cascade" }),
  auditFinishedAt: text("audit_finished_at").notNull(),
  block: text("block").notNull(),
});
