// Queries for the Google Business Profile connection, OAuth starts and scheduled posts (issue 20).
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { GbpLocationJson, ScheduledPostJson, ScheduleState } from "../content/rules/gbp-schedule";
import type { GmbPost } from "../../platform/providers/rules/gmb-post";
import type { Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { users } from "../../platform/auth/tables";
import { gbpConnections, oauthStates, scheduledPosts } from "./tables";

export type GbpConnectionRow = typeof gbpConnections.$inferSelect;
export type ScheduledPostRow = typeof scheduledPosts.$inferSelect;

const nowIso = () => new Date().toISOString();

export function parseLocations(text: string): GbpLocationJson[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as GbpLocationJson[]) : [];
  } catch {
    return [];
  }
}

// ---- OAuth starts ----

export async function insertOauthState(db: Db, row: { id: string; userId: string; codeVerifier: string; redirectUri: string; browserHash: string; expiresAt: string }) {
  await db.insert(oauthStates).values({ ...row, provider: "google" });
}

/** Takes a state once: the row is deleted as it is read, so a state never works twice. */
export async function takeOauthState(db: Db, id: string) {
  const rows = await db.delete(oauthStates).where(eq(oauthStates.id, id)).returning();
  return rows[0] ?? null;
}

export async function deleteExpiredOauthStates(db: Db) {
  await db.delete(oauthStates).where(lte(oauthStates.expiresAt, nowIso()));
}

// ---- the connection ----

export async function findConnection(db: Db, userId: string): Promise<GbpConnectionRow | null> {
  return (await db.select().from(gbpConnections).where(eq(gbpConnections.userId, userId)).get()) ?? null;
}

/** Creates or replaces the user's connection after a successful sign-in at Google (a reconnect keeps the chosen locations). */
export async function upsertConnection(
  db: Db,
  userId: string,
  id: string,
  fields: { accessTokenCiphertext: string; refreshTokenCiphertext: string; accessExpiresAt: string; availableLocations: GbpLocationJson[]; chosen: GbpLocationJson[] | null },
) {
  const status = fields.chosen && fields.chosen.length > 0 ? "connected" : "choosing";
  const values = {
    accessTokenCiphertext: fields.accessTokenCiphertext,
    refreshTokenCiphertext: fields.refreshTokenCiphertext,
    accessExpiresAt: fields.accessExpiresAt,
    availableLocations: JSON.stringify(fields.availableLocations),
    chosenLocations: JSON.stringify(fields.chosen ?? []),
    status,
    lastSyncAt: nowIso(),
    lastError: null,
    lastErrorCode: null,
    updatedAt: nowIso(),
  } as const;
  await db
    .insert(gbpConnections)
    .values({ id, userId, ...values })
    .onConflictDoUpdate({ target: gbpConnections.userId, set: { ...values, id } });
}

/** A connection without tokens that remembers Google's refusal (the API not enabled …), so the page can say it. */
export async function recordConnectionError(db: Db, userId: string, code: string, message: string) {
  const existing = await findConnection(db, userId);
  if (existing) {
    await db.update(gbpConnections).set({ lastError: message, lastErrorCode: code, updatedAt: nowIso() }).where(eq(gbpConnections.userId, userId));
  } else {
    await db.insert(gbpConnections).values({ id: crypto.randomUUID(), userId, status: "needs_reconnect", lastError: message, lastErrorCode: code });
  }
}

export async function saveChosenLocations(db: Db, userId: string, chosen: GbpLocationJson[]) {
  await db
    .update(gbpConnections)
    .set({ chosenLocations: JSON.stringify(chosen), status: "connected", updatedAt: nowIso() })
    .where(and(eq(gbpConnections.userId, userId), inArray(gbpConnections.status, ["choosing", "connected"])));
}

export async function saveAccessToken(db: Db, connectionId: string, ciphertext: string, expiresAt: string) {
  await db.update(gbpConnections).set({ accessTokenCiphertext: ciphertext, accessExpiresAt: expiresAt, updatedAt: nowIso() }).where(eq(gbpConnections.id, connectionId));
}

export async function markNeedsReconnect(db: Db, connectionId: string, code: string, message: string) {
  await db
    .update(gbpConnections)
    .set({ status: "needs_reconnect", lastError: message, lastErrorCode: code, accessTokenCiphertext: null, updatedAt: nowIso() })
    .where(eq(gbpConnections.id, connectionId));
}

export async function markSynced(db: Db, connectionId: string) {
  await db.update(gbpConnections).set({ lastSyncAt: nowIso(), updatedAt: nowIso() }).where(eq(gbpConnections.id, connectionId));
}

export async function deleteConnection(db: Db, userId: string) {
  await db.delete(gbpConnections).where(eq(gbpConnections.userId, userId));
}

// ---- scheduled posts ----

export function scheduledPostJson(row: ScheduledPostRow): ScheduledPostJson {
  return {
    id: row.id,
    post: JSON.parse(row.body) as GmbPost,
    scheduledAt: row.scheduledAt,
    timezone: row.timezone,
    locationName: row.locationName,
    locationTitle: row.locationTitle,
    contentId: row.contentId,
    state: row.state as ScheduleState,
    reason: row.reason,
    googlePostName: row.googlePostName,
    googleSearchUrl: row.googleSearchUrl,
    publishedAt: row.publishedAt,
    createdAt: row.createdAt,
  };
}

export const SCHEDULE_LIST_LIMIT = 500;

export async function listScheduledPosts(db: Db, userId: string, range: { from?: string; to?: string } = {}) {
  const conditions = [eq(scheduledPosts.userId, userId)];
  if (range.from) conditions.push(sql`${scheduledPosts.scheduledAt} >= ${range.from}`);
  if (range.to) conditions.push(sql`${scheduledPosts.scheduledAt} < ${range.to}`);
  return db.select().from(scheduledPosts).where(and(...conditions)).orderBy(asc(scheduledPosts.scheduledAt)).limit(SCHEDULE_LIST_LIMIT).all();
}

export async function insertScheduledPost(
  db: Db,
  row: { userId: string; post: GmbPost; scheduledAt: string; timezone: string; locationName: string | null; locationTitle: string | null; contentId: string | null },
) {
  const [inserted] = await db
    .insert(scheduledPosts)
    .values({ id: crypto.randomUUID(), userId: row.userId, body: JSON.stringify(row.post), scheduledAt: row.scheduledAt, timezone: row.timezone, locationName: row.locationName, locationTitle: row.locationTitle, contentId: row.contentId })
    .returning();
  return inserted!;
}

export async function findScheduledPost(db: Db, id: string, userId?: string) {
  const where = userId ? and(eq(scheduledPosts.id, id), eq(scheduledPosts.userId, userId)) : eq(scheduledPosts.id, id);
  return (await db.select().from(scheduledPosts).where(where).get()) ?? null;
}

const EDITABLE = ["scheduled", "reminded", "failed"] as const;

/** Edits a post that has not left (compare-and-set on its state); a changed time puts it back on the calendar. */
export async function updateScheduledPost(
  db: Db,
  id: string,
  userId: string,
  patch: { post?: GmbPost; scheduledAt?: string; timezone?: string; locationName?: string | null; locationTitle?: string | null },
) {
  const set: Partial<typeof scheduledPosts.$inferInsert> = { updatedAt: nowIso(), state: "scheduled", reason: null, attempts: 0, nextAttemptAt: null, remindedAt: null };
  if (patch.post) set.body = JSON.stringify(patch.post);
  if (patch.scheduledAt) set.scheduledAt = patch.scheduledAt;
  if (patch.timezone) set.timezone = patch.timezone;
  if (patch.locationName !== undefined) {
    set.locationName = patch.locationName;
    set.locationTitle = patch.locationTitle ?? null;
  }
  const rows = await db
    .update(scheduledPosts)
    .set(set)
    .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.userId, userId), inArray(scheduledPosts.state, [...EDITABLE])))
    .returning();
  return rows[0] ?? null;
}

/** Deletes a post unless it is being published right now. */
export async function deleteScheduledPost(db: Db, id: string, userId: string): Promise<"deleted" | "busy" | "missing"> {
  const rows = await db
    .delete(scheduledPosts)
    .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.userId, userId), sql`${scheduledPosts.state} <> 'publishing'`))
    .returning({ id: scheduledPosts.id });
  if (rows.length) return "deleted";
  return (await findScheduledPost(db, id, userId)) ? "busy" : "missing";
}

// ---- the publisher ----

/** Due work: scheduled posts whose time has come, and posts under review whose next look is due. */
export async function duePosts(db: Db, now: string, limit = 200) {
  return db
    .select({ id: scheduledPosts.id, userId: scheduledPosts.userId, state: scheduledPosts.state, locationName: scheduledPosts.locationName })
    .from(scheduledPosts)
    .where(
      or(
        and(eq(scheduledPosts.state, "scheduled"), lte(scheduledPosts.scheduledAt, now), or(isNull(scheduledPosts.nextAttemptAt), lte(scheduledPosts.nextAttemptAt, now))),
        and(eq(scheduledPosts.state, "processing"), lte(scheduledPosts.nextAttemptAt, now)),
      ),
    )
    .orderBy(asc(scheduledPosts.scheduledAt))
    .limit(limit)
    .all();
}

/** Connections by user, for the sweep's choice between publishing and reminding. */
export async function connectionsOf(db: Db, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db.select({ userId: gbpConnections.userId, status: gbpConnections.status }).from(gbpConnections).where(inArray(gbpConnections.userId, userIds.slice(0, 90))).all();
}

/**
 * A due post as a job, claimed for publishing (scheduled → publishing): of two deliveries of the same post, only one
 * calls Google. Nothing is won when it is no longer scheduled or not yet due.
 */
export const scheduledPostJob = defineJob({
  table: scheduledPosts,
  rows: (id: string, now: string) => and(eq(scheduledPosts.id, id), lte(scheduledPosts.scheduledAt, now)),
  status: { column: scheduledPosts.state, from: ["scheduled"], to: "publishing" },
  claimedAt: scheduledPosts.claimedAt,
  attempts: scheduledPosts.attempts,
  set: (now) => ({ updatedAt: now }),
});

/** Moves a post on from `from` (compare-and-set), recording what happened. */
export async function settlePost(db: Db, id: string, from: ScheduleState, set: Partial<typeof scheduledPosts.$inferInsert> & { state: ScheduleState }) {
  const rows = await db
    .update(scheduledPosts)
    .set({ ...set, updatedAt: nowIso() })
    .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.state, from)))
    .returning({ id: scheduledPosts.id });
  return rows.length > 0;
}

/** A due post without a connection becomes a reminder (once); returns it with its owner's email for the mail. */
export async function markReminded(db: Db, id: string, reason: string) {
  const now = nowIso();
  const rows = await db
    .update(scheduledPosts)
    .set({ state: "reminded", remindedAt: now, reason, updatedAt: now })
    .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.state, "scheduled")))
    .returning();
  const row = rows[0];
  if (!row) return null;
  const user = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).get();
  return { row, email: user?.email ?? null };
}

/** Claims older than this are from a worker that died mid-call: they fail (Google may have the post), never retry. */
export const STALE_CLAIM_MS = 15 * 60_000;

export async function failStaleClaims(db: Db): Promise<string[]> {
  const cutoff = new Date(Date.now() - STALE_CLAIM_MS).toISOString();
  const rows = await db
    .update(scheduledPosts)
    .set({ state: "failed", reason: "Publishing was interrupted. Check your Google listing before scheduling it again: Google may have it.", updatedAt: nowIso() })
    .where(and(eq(scheduledPosts.state, "publishing"), lte(scheduledPosts.claimedAt, cutoff)))
    .returning({ userId: scheduledPosts.userId });
  return rows.map((r) => r.userId);
}
