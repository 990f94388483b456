// Content: generated Facebook posts and the content tools' kept results.
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../../platform/db/columns";
import { userId } from "../../platform/auth/tables";

/** Facebook posts a user generated (spec part 1 §3 "Generated post"), newest first in "Recent posts". */
export const generatedPosts = sqliteTable(
  "generated_posts",
  {
    id: id(),
    userId: userId(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    /** JSON array of hashtags. */
    tags: text("tags").notNull().default("[]"),
    imagePrompt: text("image_prompt").notNull().default(""),
    image: text("image").notNull().default(""),
    postType: text("post_type").notNull(),
    tone: text("tone").notNull(),
    length: text("length").notNull(),
    /** What the user asked for (the description box). */
    request: text("request").notNull().default(""),
    source: text("source", { enum: ["ai", "template"] }).notNull(),
    ...timestamps(),
  },
  (t) => [index("generated_posts_user_idx").on(t.userId, t.createdAt)],
);

/**
 * One kept result of a content tool (issue 20: GMB posts, social posts, video scripts, social plans), shown as
 * 'Recent' under its tool. `input` and `result` are the tool's JSON; `feed_token_hash` is the SHA-256 of a social
 * plan's calendar subscription token (the token itself is only ever in the URL the user was given).
 */
export const contentItems = sqliteTable(
  "content_items",
  {
    id: id(),
    userId: userId(),
    tool: text("tool").notNull(),
    title: text("title").notNull(),
    input: text("input").notNull().default("{}"),
    result: text("result").notNull(),
    source: text("source", { enum: ["ai", "template"] }).notNull(),
    notice: text("notice"),
    /** JSON array of the length rules applied after generation. */
    notes: text("notes").notNull().default("[]"),
    feedTokenHash: text("feed_token_hash"),
    ...timestamps(),
  },
  (t) => [
    index("content_items_user_tool_idx").on(t.userId, t.tool, t.createdAt),
    uniqueIndex("content_items_feed_token_unique").on(t.feedTokenHash),
  ],
);
