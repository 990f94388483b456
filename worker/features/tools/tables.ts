// Tools: the web search answers kept for a day.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Web search answers (Google Search Results tool), kept 24 hours per normalised keyword + location. */
export const searchCache = sqliteTable(
  "search_cache",
  {
    key: text("key").primaryKey(),
    keyword: text("keyword").notNull(),
    location: text("location").notNull(),
    results: text("results").notNull(),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [index("search_cache_fetched_idx").on(t.fetchedAt)],
);
