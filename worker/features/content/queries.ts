// Queries for content_items: the content tools' kept results (one history for every tool), newest first, and the
// social plan's calendar subscription (looked up by the SHA-256 of its token); and the scheduled Google posts' figures
// on the agency's clients view.
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { and, desc, eq, sql } from "drizzle-orm";
import type { ContentItem, ContentTool } from "./rules/content";
import type { Db } from "../../platform/db/client";
import { contentItems } from "./tables";
import { scheduledPosts } from "../integrations/tables";
import { POST_FAILURES_DAYS, type PostClientFigures } from "./rules/client-figures";

export type ContentRow = typeof contentItems.$inferSelect;

/** Results shown as 'Recent' under a tool. */
export const RECENT_CONTENT_LIMIT = 20;

function parseJson(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function contentJson(row: ContentRow): ContentItem {
  const notes = parseJson(row.notes, []);
  return {
    id: row.id,
    tool: row.tool as ContentTool,
    title: row.title,
    input: parseJson(row.input, {}),
    result: parseJson(row.result, null),
    source: row.source,
    notice: row.notice,
    notes: Array.isArray(notes) ? notes.filter((n): n is string => typeof n === "string") : [],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function insertContent(
  db: Db,
  userId: string,
  item: { tool: ContentTool; title: string; input: unknown; result: unknown; source: "ai" | "template"; notice: string | null; notes: string[] },
) {
  const now = new Date().toISOString();
  const [row] = await db
    .insert(contentItems)
    .values({
      id: crypto.randomUUID(),
      userId,
      tool: item.tool,
      title: item.title,
      input: JSON.stringify(item.input ?? {}),
      result: JSON.stringify(item.result),
      source: item.source,
      notice: item.notice,
      notes: JSON.stringify(item.notes),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function listContent(db: Db, userId: string, tool: ContentTool, limit = RECENT_CONTENT_LIMIT) {
  return db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.userId, userId), eq(contentItems.tool, tool)))
    .orderBy(desc(contentItems.createdAt))
    .limit(limit);
}

export async function getContent(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.id, id), eq(contentItems.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Saves an edit (the whole result, already checked against the tool's schema); null when the user has no such item. */
export async function updateContentResult(db: Db, userId: string, id: string, result: unknown, title: string) {
  const [row] = await db
    .update(contentItems)
    .set({ result: JSON.stringify(result), title, updatedAt: new Date().toISOString() })
    .where(and(eq(contentItems.id, id), eq(contentItems.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteContent(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(contentItems)
    .where(and(eq(contentItems.id, id), eq(contentItems.userId, userId)))
    .returning({ id: contentItems.id });
  return rows.length > 0;
}

/** Gives the item a new calendar token (the old URL stops working); false when the user has no such item. */
export async function setFeedToken(db: Db, userId: string, id: string, tokenHash: string): Promise<boolean> {
  const rows = await db
    .update(contentItems)
    .set({ feedTokenHash: tokenHash })
    .where(and(eq(contentItems.id, id), eq(contentItems.userId, userId)))
    .returning({ id: contentItems.id });
  return rows.length > 0;
}

export async function contentByFeedToken(db: Db, tokenHash: string) {
  const [row] = await db.select().from(contentItems).where(eq(contentItems.feedTokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/**
 * One client's Google posts figures (issue 41) in one statement, an aggregate over the scheduler's posts: the last one
 * live, those failed or rejected in the last POST_FAILURES_DAYS days (by when they settled), those still to come.
 */
export async function postClientFigures(db: Db, userId: string, now = new Date()): Promise<PostClientFigures> {
  const [figures] = await runReads(db, postClientFiguresRead(db, userId, now));
  return figures;
}

/** postClientFigures's query, for a caller's batch. */
export function postClientFiguresRead(db: Db, userId: string, now = new Date()) {
  const at = now.toISOString();
  const since = new Date(now.getTime() - POST_FAILURES_DAYS * 86_400_000).toISOString();
  const query = db
    .select({
      lastPublishedAt: sql<string | null>`max(case when ${scheduledPosts.state} = 'live' then ${scheduledPosts.publishedAt} end)`,
      failed: sql<number>`coalesce(sum(case when ${scheduledPosts.state} in ('failed', 'rejected') and ${scheduledPosts.updatedAt} >= ${since} then 1 else 0 end), 0)`,
      scheduled: sql<number>`coalesce(sum(case when ${scheduledPosts.state} = 'scheduled' and ${scheduledPosts.scheduledAt} > ${at} then 1 else 0 end), 0)`,
    })
    .from(scheduledPosts)
    .where(eq(scheduledPosts.userId, userId));
  return batchedRead([query], ([[row]]): PostClientFigures => ({ lastPublishedAt: row?.lastPublishedAt ?? null, failed: Number(row?.failed ?? 0), scheduled: Number(row?.scheduled ?? 0) }));
}
