// Prospects: the businesses the agency works on.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, createdAt } from "../../platform/db/columns";
import { users, userId } from "../../platform/auth/tables";

export const prospects = sqliteTable(
  "prospects",
  {
    id: id(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    area: text("area").notNull(),
    keyword: text("keyword").notNull().default(""),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    tag: text("tag"),
    companyName: text("company_name").notNull().default(""),
    /** The prospect's website (optional; the audit reads it, else the Google listing's). */
    website: text("website"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Lower-cased concatenation of the eight searchable fields, kept by the app on every write. */
    searchText: text("search_text").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("prospects_created_idx").on(t.createdAt),
    index("prospects_name_phone_idx").on(t.name, t.phone),
    index("prospects_name_area_idx").on(t.name, t.area),
  ],
);

/**
 * Whose business a scan or a tracked item is about: the user's own (`kind` "own") or a prospect's (`kind` "prospect",
 * `prospect_id`). `user_id` is the owner of an own business; for a prospect's, the admin who ran (or tracks) it.
 */
export function businessColumns() {
  return {
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    userId: userId(),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
  };
}
