// Queries for outgoing webhooks (issue 21): endpoints (secret sealed), deliveries (claimed before sending, one per
// idempotency key), the delivery log.
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { WebhookEvent } from "./rules/lead-events";
import type { Db } from "../db/client";
import { defineJob } from "../jobs/claim";
import { afterCursor, rowid, type Cursor } from "../db/cursor";
import { webhookDeliveries, webhookEndpoints } from "./tables";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Active endpoints subscribed to `event`. */
export async function endpointsFor(db: Db, event: WebhookEvent) {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.status, "active"), sql`exists (select 1 from json_each(${webhookEndpoints.events}) where value = ${event})`))
    .limit(50);
}

export type NewDelivery = { id: string; endpointId: string; eventId: string; eventType: string; idempotencyKey: string; body: string; replayOf?: string | null };

/** Inserts the deliveries whose idempotency key is new; returns the ids inserted (the others existed already). */
export async function insertDeliveries(db: Db, rows: NewDelivery[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const out: string[] = [];
  // 8 columns a row: 10 rows stay under D1's 100 bound parameters.
  for (let i = 0; i < rows.length; i += 10) {
    const inserted = await db
      .insert(webhookDeliveries)
      .values(rows.slice(i, i + 10))
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    out.push(...inserted.map((r) => r.id));
  }
  return out;
}

export async function listEndpoints(db: Db) {
  return db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.createdAt)).limit(100);
}

export async function getEndpoint(db: Db, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
  return row ?? null;
}

export async function createEndpoint(db: Db, row: { id: string; userId: string; url: string; description: string; events: string; secretCiphertext: string }) {
  const [created] = await db.insert(webhookEndpoints).values(row).returning();
  return created!;
}

export async function updateEndpoint(db: Db, id: string, set: Partial<Omit<EndpointRow, "id" | "createdAt">>) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: new Date().toISOString() })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

export const DELIVERIES_PAGE = 25;

/** One page of an endpoint's delivery log, newest first. */
export async function listDeliveries(db: Db, endpointId: string, cursor: Cursor | null, limit = DELIVERIES_PAGE) {
  const mine = eq(webhookDeliveries.endpointId, endpointId);
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      responseCode: webhookDeliveries.responseCode,
      lastError: webhookDeliveries.lastError,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      replayOf: webhookDeliveries.replayOf,
      body: webhookDeliveries.body,
      createdAt: webhookDeliveries.createdAt,
      updatedAt: webhookDeliveries.updatedAt,
      seq: rowid(webhookDeliveries),
    })
    .from(webhookDeliveries)
    .where(cursor ? and(mine, afterCursor(webhookDeliveries, webhookDeliveries.createdAt, cursor)) : mine)
    .orderBy(desc(webhookDeliveries.createdAt), desc(rowid(webhookDeliveries)))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export async function getDelivery(db: Db, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
  return row ?? null;
}

/** A claim older than this is taken to be a consumer that died mid-send. */
export const STALE_CLAIM_MS = 120_000;

/**
 * A delivery as a job: claimed for sending (pending or retrying, or a stale claim); nothing is won when it was sent
 * already, is being sent, or failed for good. So a message delivered twice sends once.
 */
export const deliveryJob = defineJob({
  table: webhookDeliveries,
  rows: (id: string) => eq(webhookDeliveries.id, id),
  status: { column: webhookDeliveries.status, from: ["pending", "retrying"], to: "sending" },
  claimedAt: webhookDeliveries.claimedAt,
  attempts: webhookDeliveries.attempts,
  set: (now) => ({ updatedAt: now }),
});

/** Records a delivery's outcome and the endpoint's last response in one batch. */
export async function recordAttempt(
  db: Db,
  input: {
    deliveryId: string;
    endpointId: string;
    status: "succeeded" | "retrying" | "failed";
    responseCode: number | null;
    error: string | null;
    nextAttemptAt: string | null;
    at: string;
  },
) {
  const ok = input.status === "succeeded";
  await db.batch([
    db
      .update(webhookDeliveries)
      .set({
        status: input.status,
        responseCode: input.responseCode,
        lastError: input.error,
        nextAttemptAt: input.nextAttemptAt,
        deliveredAt: ok ? input.at : null,
        claimedAt: null,
        updatedAt: input.at,
      })
      .where(eq(webhookDeliveries.id, input.deliveryId)),
    db
      .update(webhookEndpoints)
      .set({
        lastStatusCode: input.responseCode,
        lastError: input.error,
        lastAttemptAt: input.at,
        failingSince: ok ? null : sql`coalesce(${webhookEndpoints.failingSince}, ${input.at})`,
      })
      .where(eq(webhookEndpoints.id, input.endpointId)),
  ]);
}

/** Pauses an endpoint that was active (compare-and-set: only one consumer alerts the owner); true when it did. */
export async function pauseEndpoint(db: Db, id: string, at: string): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ status: "paused", pausedAt: at, updatedAt: at })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.status, "active")))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** Marks a delivery failed for good (the dead-letter consumer, a paused endpoint). */
export async function failDelivery(db: Db, id: string, reason: string) {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed", lastError: reason, claimedAt: null, nextAttemptAt: null, updatedAt: new Date().toISOString() })
    .where(and(eq(webhookDeliveries.id, id), sql`${webhookDeliveries.status} != 'succeeded'`));
}

/** Deliveries a lost message left behind: pending or retrying well past their time, or a stale claim. */
export async function strandedDeliveries(db: Db, now: Date, limit = 100): Promise<string[]> {
  const before = new Date(now.getTime() - 10 * 60_000).toISOString();
  const stale = new Date(now.getTime() - STALE_CLAIM_MS).toISOString();
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      or(
        and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.createdAt, before)),
        and(eq(webhookDeliveries.status, "retrying"), lt(webhookDeliveries.nextAttemptAt, before)),
        and(eq(webhookDeliveries.status, "sending"), lt(webhookDeliveries.claimedAt, stale)),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}
