// The capability tables the platform reads or points a foreign key at, declared by name with only the columns it
// uses: the platform never imports a capability, and these add nothing to the migrations (drizzle-kit reads only the
// tables.ts files). tests/libsql/table-refs.test.ts checks every column here against the capability's own table.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** worker/features/prospects/tables.ts: alerts name the prospect and go to its owner. */
export const prospects = sqliteTable("prospects", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  userId: text("user_id"),
});

/** worker/features/reports/tables.ts: an alert links to the prospect's report. */
export const seoReports = sqliteTable("seo_reports", {
  id: text("id").primaryKey(),
  prospectId: text("prospect_id").notNull(),
});

/** worker/features/billing/tables.ts: the meter's plan allowance needs a subscription in force. */
export const subscriptions = sqliteTable("subscriptions", {
  userId: text("user_id"),
  status: text("status").notNull(),
});
