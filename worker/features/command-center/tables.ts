// The agency's command center (issue 41): the attention queue's items, one per client, kind and subject.
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../../platform/db/columns";
import { userId } from "../../platform/auth/tables";
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
