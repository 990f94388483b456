// Queries for generated_posts: a user's kept Facebook posts, newest first.
import { and, desc, eq } from "drizzle-orm";
import type { GeneratedPost, PostLength, PostRequest, PostType, Tone } from "./rules/facebook-post";
import type { ParsedPost } from "./rules/facebook-post";
import type { Db } from "../../platform/db/client";
import { generatedPosts } from "./tables";

export type PostRow = typeof generatedPosts.$inferSelect;

/** Recent posts shown under the generator. */
export const RECENT_POSTS_LIMIT = 20;

function parseTags(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

export function postJson(row: PostRow): GeneratedPost {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    tags: parseTags(row.tags),
    imagePrompt: row.imagePrompt,
    image: row.image,
    source: row.source,
    postType: row.postType as PostType,
    tone: row.tone as Tone,
    length: row.length as PostLength,
    request: row.request,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function insertPost(db: Db, userId: string, req: PostRequest, post: ParsedPost, source: "ai" | "template") {
  const now = new Date().toISOString();
  const [row] = await db
    .insert(generatedPosts)
    .values({
      id: crypto.randomUUID(),
      userId,
      title: post.title,
      content: post.content,
      tags: JSON.stringify(post.tags),
      imagePrompt: post.imagePrompt,
      image: post.image,
      postType: req.postType,
      tone: req.tone,
      length: req.length,
      request: req.description,
      source,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function listPosts(db: Db, userId: string, limit = RECENT_POSTS_LIMIT) {
  return db
    .select()
    .from(generatedPosts)
    .where(eq(generatedPosts.userId, userId))
    .orderBy(desc(generatedPosts.createdAt))
    .limit(limit);
}

/** Replaces a post's content; null when the user has no such post. */
export async function updatePostContent(db: Db, userId: string, id: string, content: string) {
  const [row] = await db
    .update(generatedPosts)
    .set({ content, updatedAt: new Date().toISOString() })
    .where(and(eq(generatedPosts.id, id), eq(generatedPosts.userId, userId)))
    .returning();
  return row ?? null;
}

/** Deletes one of the user's posts; false when there was none. */
export async function deletePost(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(generatedPosts)
    .where(and(eq(generatedPosts.id, id), eq(generatedPosts.userId, userId)))
    .returning({ id: generatedPosts.id });
  return rows.length > 0;
}
