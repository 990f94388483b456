// The platform's own small tables: the rate limits' fixed-window counters.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Fixed-window counters for rate limits (failed sign-ins, sign-ups, public chat). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull().default(0),
});
