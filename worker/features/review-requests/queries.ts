// Review requests (issue 28): a business's request settings and short link, customers' opt-outs, and the requests
// themselves (scheduled, claimed by compare-and-set when sent or reminded, their delivery and click recorded).
import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { profiles } from "../../platform/auth/tables";
import { auditSteps, audits } from "../audits/tables";
import { reviewLinks, reviewOptOuts, reviewRequestSettings, reviewRequests } from "./tables";

export type ReviewRequestRow = typeof reviewRequests.$inferSelect;
export type RequestSettingsRow = typeof reviewRequestSettings.$inferSelect;

/** The scope of an opt-out that reaches every business (STOP on the shared text line). */
export const EVERY_BUSINESS = "*";

export async function getRequestSettings(db: Db, userId: string): Promise<RequestSettingsRow | null> {
  const rows = await db.select().from(reviewRequestSettings).where(eq(reviewRequestSettings.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function saveRequestSettings(db: Db, userId: string, values: Partial<typeof reviewRequestSettings.$inferInsert>): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insert(reviewRequestSettings)
    .values({ userId, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: reviewRequestSettings.userId, set: { ...values, updatedAt: now } });
}

export async function userByHookTokenHash(db: Db, hash: string): Promise<string | null> {
  const rows = await db.select({ userId: reviewRequestSettings.userId }).from(reviewRequestSettings).where(eq(reviewRequestSettings.hookTokenHash, hash)).limit(1);
  return rows[0]?.userId ?? null;
}

/** The business's short link, made on first use (a clash of random slugs is retried by the caller). */
export async function ensureReviewLink(db: Db, userId: string, newSlug: string): Promise<{ slug: string; clicks: number }> {
  await db.insert(reviewLinks).values({ slug: newSlug, userId }).onConflictDoNothing();
  const rows = await db.select({ slug: reviewLinks.slug, clicks: reviewLinks.clicks }).from(reviewLinks).where(eq(reviewLinks.userId, userId)).limit(1);
  if (!rows[0]) throw new Error("review link could not be made");
  return rows[0];
}

export async function getReviewLink(db: Db, userId: string): Promise<{ slug: string; clicks: number } | null> {
  const rows = await db.select({ slug: reviewLinks.slug, clicks: reviewLinks.clicks }).from(reviewLinks).where(eq(reviewLinks.userId, userId)).limit(1);
  return rows[0] ?? null;
}

/** The link, its business's settings and (by token) the request a click came from, in one round trip. */
export async function resolveShortLink(db: Db, slug: string, token: string | null) {
  const [links, settings, requests] = await db.batch([
    db.select().from(reviewLinks).where(eq(reviewLinks.slug, slug)).limit(1),
    db
      .select({ placeId: reviewRequestSettings.placeId })
      .from(reviewRequestSettings)
      .innerJoin(reviewLinks, eq(reviewLinks.userId, reviewRequestSettings.userId))
      .where(eq(reviewLinks.slug, slug))
      .limit(1),
    db
      .select({ id: reviewRequests.id, userId: reviewRequests.userId })
      .from(reviewRequests)
      .where(eq(reviewRequests.token, token ?? ""))
      .limit(1),
  ]);
  return { link: links[0] ?? null, placeId: settings[0]?.placeId ?? null, request: requests[0] ?? null };
}

/** Counts a click on the link, and on the request it came from (the first one marks it opened). */
export async function recordClick(db: Db, slug: string, requestId: string | null): Promise<void> {
  const now = new Date().toISOString();
  const link = db.update(reviewLinks).set({ clicks: sql`${reviewLinks.clicks} + 1` }).where(eq(reviewLinks.slug, slug));
  if (!requestId) {
    await link;
    return;
  }
  await db.batch([
    link,
    db
      .update(reviewRequests)
      .set({
        clicks: sql`${reviewRequests.clicks} + 1`,
        openedAt: sql`coalesce(${reviewRequests.openedAt}, ${now})`,
        status: sql`case when ${reviewRequests.status} in ('sent', 'delivered') then 'opened' else ${reviewRequests.status} end`,
        updatedAt: now,
      })
      .where(eq(reviewRequests.id, requestId)),
  ]);
}

/** The place id of the business's latest own audit that found its Google listing. */
export async function auditPlaceId(db: Db, userId: string): Promise<string | null> {
  const rows = await db
    .select({ result: auditSteps.result })
    .from(auditSteps)
    .innerJoin(audits, eq(audits.id, auditSteps.auditId))
    .where(and(eq(audits.userId, userId), eq(audits.kind, "own"), eq(auditSteps.step, "find"), eq(auditSteps.status, "done")))
    .orderBy(desc(audits.createdAt))
    .limit(5);
  for (const row of rows) {
    try {
      const result = JSON.parse(row.result ?? "null") as { status?: string; listing?: { placeId?: string | null } } | null;
      if (result?.status === "found" && result.listing?.placeId) return result.listing.placeId;
    } catch {
      // a step result that does not parse names no listing
    }
  }
  return null;
}

/** Whether any of the addresses opted out of this business's messages (or of every business's, by STOP). */
export async function optedOutAddresses(db: Db, userId: string, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .select({ address: reviewOptOuts.address })
    .from(reviewOptOuts)
    .where(and(inArray(reviewOptOuts.address, addresses), inArray(reviewOptOuts.scope, [userId, EVERY_BUSINESS])));
  return new Set(rows.map((r) => r.address));
}

/**
 * Records an opt-out (kept: a later request never lifts it) and cancels what was still to be sent to those addresses:
 * scheduled requests become `opted_out`, sent ones lose their reminder; and the requests list says "Opted out" for
 * them, sent, delivered or opened (issue 39: an opened request of a customer who opted out no longer reads "Opened").
 */
export async function recordOptOut(db: Db, scope: string, addresses: string[], via: "sms_stop" | "unsubscribe_link"): Promise<void> {
  const list = addresses.filter(Boolean);
  if (list.length === 0) return;
  const now = new Date().toISOString();
  const whose = scope === EVERY_BUSINESS ? sql`1 = 1` : eq(reviewRequests.userId, scope);
  const to = or(inArray(reviewRequests.email, list), inArray(reviewRequests.phone, list));
  await db.batch([
    db
      .insert(reviewOptOuts)
      .values(list.map((address) => ({ scope, address, via })))
      .onConflictDoNothing(),
    db.update(reviewRequests).set({ status: "opted_out", updatedAt: now, lastError: null }).where(and(whose, to, eq(reviewRequests.status, "scheduled"))),
    db.update(reviewRequests).set({ reminderDueAt: null, updatedAt: now }).where(and(whose, to, isNull(reviewRequests.reminderSentAt))),
    db.update(reviewRequests).set({ status: "opted_out", updatedAt: now }).where(and(whose, to, inArray(reviewRequests.status, ["sent", "delivered", "opened"]))),
  ]);
}

export async function findRequestByJob(db: Db, userId: string, externalJobId: string): Promise<ReviewRequestRow | null> {
  const rows = await db
    .select()
    .from(reviewRequests)
    .where(and(eq(reviewRequests.userId, userId), eq(reviewRequests.externalJobId, externalJobId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Inserts the request; false when the business already has one for this job (the unique job index). */
export async function insertRequest(db: Db, row: typeof reviewRequests.$inferInsert): Promise<boolean> {
  const rows = await db.insert(reviewRequests).values(row).onConflictDoNothing().returning({ id: reviewRequests.id });
  return rows.length > 0;
}

export async function countRequestsSince(db: Db, userId: string, since: string): Promise<number> {
  // A request cancelled by an opt-out before it went does not count; one that was sent does, whatever came after.
  return Number(await db.$count(reviewRequests, and(eq(reviewRequests.userId, userId), gte(reviewRequests.createdAt, since), or(ne(reviewRequests.status, "opted_out"), isNotNull(reviewRequests.sentAt)))));
}

export async function listRequests(db: Db, userId: string, limit = 100): Promise<ReviewRequestRow[]> {
  return db.select().from(reviewRequests).where(eq(reviewRequests.userId, userId)).orderBy(desc(reviewRequests.createdAt)).limit(limit);
}

/** Requests sent since `since` (the likely-review match looks at these; a business sends a few hundred a year at most). */
export async function sentRequestsSince(db: Db, userId: string, since: string, limit = 2000): Promise<{ id: string; customerName: string; sentAt: string | null }[]> {
  return db
    .select({ id: reviewRequests.id, customerName: reviewRequests.customerName, sentAt: reviewRequests.sentAt })
    .from(reviewRequests)
    .where(and(eq(reviewRequests.userId, userId), gte(reviewRequests.sentAt, since)))
    .orderBy(desc(reviewRequests.sentAt))
    .limit(limit);
}

export async function requestFigures(db: Db, userId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: reviewRequests.status, n: sql<number>`count(*)` })
    .from(reviewRequests)
    .where(eq(reviewRequests.userId, userId))
    .groupBy(reviewRequests.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export async function getRequest(db: Db, id: string): Promise<ReviewRequestRow | null> {
  const rows = await db.select().from(reviewRequests).where(eq(reviewRequests.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function requestByToken(db: Db, token: string): Promise<ReviewRequestRow | null> {
  const rows = await db.select().from(reviewRequests).where(eq(reviewRequests.token, token)).limit(1);
  return rows[0] ?? null;
}

/** A request that is due: its first message, or its one reminder (sent, link not opened, not reminded yet). */
function dueCondition(now: string) {
  return or(
    and(eq(reviewRequests.status, "scheduled"), lte(reviewRequests.dueAt, now)),
    and(inArray(reviewRequests.status, ["sent", "delivered"]), lte(reviewRequests.reminderDueAt, now), isNull(reviewRequests.reminderSentAt), isNull(reviewRequests.openedAt)),
  );
}

/** Due requests for the cron, not put on the queue in the last `requeueAfter` (a lost message is sent again). */
export async function dueRequestIds(db: Db, now: string, requeueBefore: string, limit = 200): Promise<string[]> {
  const rows = await db
    .select({ id: reviewRequests.id })
    .from(reviewRequests)
    .where(and(dueCondition(now), or(isNull(reviewRequests.enqueuedAt), lte(reviewRequests.enqueuedAt, requeueBefore))))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function markEnqueued(db: Db, ids: string[], now: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 90) await db.update(reviewRequests).set({ enqueuedAt: now }).where(inArray(reviewRequests.id, ids.slice(i, i + 90)));
}

/** A due request as a job, claimed for one delivery on `claimed_at`: nothing is won when it is not due or another holds it. */
export const reviewRequestJob = defineJob({
  table: reviewRequests,
  rows: (id: string, now: string) => and(eq(reviewRequests.id, id), dueCondition(now)),
  claimedAt: reviewRequests.claimedAt,
  stale: { orEqual: true, orNull: true },
  attempts: reviewRequests.attempts,
});

/** Writes what the claimed delivery did and lets the claim go (only while this delivery still holds it). */
export async function finishClaim(db: Db, id: string, claimedAt: string, values: Partial<typeof reviewRequests.$inferInsert>): Promise<void> {
  await db
    .update(reviewRequests)
    .set({ ...values, claimedAt: null, updatedAt: new Date().toISOString() })
    .where(and(eq(reviewRequests.id, id), eq(reviewRequests.claimedAt, claimedAt)));
}

/** Marks requests the dead-letter queue gave up on as failed (those still waiting to be sent). */
export async function failRequests(db: Db, ids: string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(reviewRequests)
    .set({ status: "failed", lastError: reason, claimedAt: null, updatedAt: new Date().toISOString() })
    .where(and(inArray(reviewRequests.id, ids), eq(reviewRequests.status, "scheduled")));
}

/** Twilio's status callback: delivered (never undoing an open) or failed, by the message's SID. */
export async function recordSmsStatus(db: Db, sid: string, outcome: { delivered: true } | { failed: string; optedOut: boolean }): Promise<ReviewRequestRow | null> {
  const now = new Date().toISOString();
  const rows =
    "delivered" in outcome
      ? await db
          .update(reviewRequests)
          .set({ deliveredAt: sql`coalesce(${reviewRequests.deliveredAt}, ${now})`, status: sql`case when ${reviewRequests.status} = 'sent' then 'delivered' else ${reviewRequests.status} end`, updatedAt: now })
          .where(eq(reviewRequests.providerMessageId, sid))
          .returning()
      : await db
          .update(reviewRequests)
          .set({ status: outcome.optedOut ? "opted_out" : "failed", lastError: outcome.failed, reminderDueAt: null, updatedAt: now })
          .where(and(eq(reviewRequests.providerMessageId, sid), inArray(reviewRequests.status, ["sent", "delivered"])))
          .returning();
  return rows[0] ?? null;
}

/** Per address (email or phone), the newest request that was not refused: the 90-day rule for many customers at once. */
export async function lastRequestsByAddress(db: Db, userId: string, addresses: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < addresses.length; i += 45) {
    const part = addresses.slice(i, i + 45);
    const rows = await db
      .select({ email: reviewRequests.email, phone: reviewRequests.phone, at: sql<string>`max(${reviewRequests.createdAt})` })
      .from(reviewRequests)
      .where(and(eq(reviewRequests.userId, userId), ne(reviewRequests.status, "failed"), or(inArray(reviewRequests.email, part), inArray(reviewRequests.phone, part))))
      .groupBy(reviewRequests.email, reviewRequests.phone);
    for (const row of rows) {
      for (const address of [row.email, row.phone]) {
        if (address && (!out.has(address) || out.get(address)! < row.at)) out.set(address, row.at);
      }
    }
  }
  return out;
}

/** The business's name, time zone (quiet hours) and phone (its country, where its texts may go), and whether its owner is an admin (no plan limit). */
export async function businessOf(db: Db, userId: string): Promise<{ name: string | null; timeZone: string | null; isAdmin: boolean; phone: string | null } | null> {
  const rows = await db
    .select({ name: profiles.companyName, timeZone: profiles.timeZone, isAdmin: profiles.isAdmin, phone: profiles.companyPhone })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  return rows[0] ?? null;
}
