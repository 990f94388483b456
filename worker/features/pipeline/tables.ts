// The pipeline (issue 42): each prospect's stage (no row: new), the prospect's timeline (what it did, each stage move
// with its cause and who), and the invitation a won prospect gets to become a client.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, createdAt, updatedAt } from "../../platform/db/columns";
import { prospects } from "../prospects/tables";
import { STAGES } from "./rules/stages";

export const prospectStages = sqliteTable(
  "prospect_stages",
  {
    prospectId: text("prospect_id")
      .primaryKey()
      .references(() => prospects.id, { onDelete: "cascade" }),
    stage: text("stage", { enum: STAGES }).notNull().default("new"),
    movedAt: text("moved_at"),
    updatedAt: updatedAt(),
  },
  (t) => [index("prospect_stages_stage_idx").on(t.stage, t.movedAt)],
);

/**
 * A prospect's timeline: what it did (a report opened, a chat, a lead, a mail) and each stage move (`kind` "moved",
 * `from`/`to`, its cause, and the admin for a move by hand). Kept once per event (`dedupe_key`).
 */
export const prospectActivity = sqliteTable(
  "prospect_activity",
  {
    id: id(),
    prospectId: text("prospect_id")
      .notNull()
      .references(() => prospects.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    fromStage: text("from_stage"),
    toStage: text("to_stage"),
    cause: text("cause"),
    by: text("by"),
    dedupeKey: text("dedupe_key").notNull().unique(),
    at: text("at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("prospect_activity_prospect_idx").on(t.prospectId, t.at)],
);

/** A won prospect invited to become a client: its address, who invited, and the account once it is confirmed. */
export const clientInvites = sqliteTable(
  "client_invites",
  {
    prospectId: text("prospect_id")
      .primaryKey()
      .references(() => prospects.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    invitedBy: text("invited_by").notNull(),
    invitedAt: text("invited_at").notNull(),
    userId: text("user_id"),
    acceptedAt: text("accepted_at"),
  },
  (t) => [index("client_invites_email_idx").on(t.email)],
);
