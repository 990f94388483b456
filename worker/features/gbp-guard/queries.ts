// The guard's named queries: watched locations kept in step with the Google connections, the nightly claim, the
// check's claim (job engine), and the changes found and decided.
import { and, desc, eq, getTableColumns, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { rowsPerInsert, type Db } from "../../platform/db/client";
import { defineJob } from "../../platform/jobs/claim";
import { gbpConnections } from "../integrations/tables";
import { gbpGuardChanges, gbpGuardLocations } from "./tables";
import type { GuardChangeSource, GuardChangeStatus, GuardedField } from "./rules/guard";

export type GuardLocationRow = typeof gbpGuardLocations.$inferSelect;
export type GuardChangeRow = typeof gbpGuardChanges.$inferSelect;

/** The chosen locations of connected users that the guard does not watch yet, and watched ones no longer chosen. */
export async function syncWatchedLocations(db: Db): Promise<{ added: number; removed: number }> {
  const chosen = await db.all<{ userId: string; name: string; title: string | null }>(sql`
    select c.user_id as userId, json_extract(j.value, '$.name') as name, json_extract(j.value, '$.title') as title
    from gbp_connections c, json_each(c.chosen_locations) j
    where c.status <> 'choosing'
      and not exists (select 1 from gbp_guard_locations g where g.user_id = c.user_id and g.location_name = json_extract(j.value, '$.name'))`);
  const fresh = chosen.filter((l) => typeof l.name === "string" && l.name);
  const per = rowsPerInsert(Object.keys(getTableColumns(gbpGuardLocations)).length);
  const inserts = [];
  for (let i = 0; i < fresh.length; i += per) {
    const part = fresh.slice(i, i + per);
    inserts.push(db.insert(gbpGuardLocations).values(part.map((l) => ({ id: crypto.randomUUID(), userId: l.userId, locationName: l.name, locationTitle: l.title ?? "" }))).onConflictDoNothing());
  }
  const [first, ...rest] = inserts;
  if (first) await db.batch([first, ...rest]);
  const gone = await db.run(sql`
    delete from gbp_guard_locations where not exists (
      select 1 from gbp_connections c, json_each(c.chosen_locations) j
      where c.user_id = gbp_guard_locations.user_id and json_extract(j.value, '$.name') = gbp_guard_locations.location_name)`);
  return { added: fresh.length, removed: Number((gone as { meta?: { changes?: number } }).meta?.changes ?? 0) };
}

/**
 * Claims up to `limit` watched locations not yet checked on `night` (a UTC date) whose owner is connected: their
 * `night` moves to it by compare-and-set, so two crons in one night never queue a location twice.
 */
export async function claimNight(db: Db, night: string, now: string, limit: number): Promise<string[]> {
  const due = db
    .select({ id: gbpGuardLocations.id })
    .from(gbpGuardLocations)
    .innerJoin(gbpConnections, and(eq(gbpConnections.userId, gbpGuardLocations.userId), eq(gbpConnections.status, "connected")))
    .where(or(isNull(gbpGuardLocations.night), ne(gbpGuardLocations.night, night)))
    .limit(limit);
  const won = await db
    .update(gbpGuardLocations)
    .set({ night, status: "queued", attempts: 0, claimedAt: now, updatedAt: now })
    .where(and(inArray(gbpGuardLocations.id, due), or(isNull(gbpGuardLocations.night), ne(gbpGuardLocations.night, night))))
    .returning({ id: gbpGuardLocations.id });
  return won.map((r) => r.id);
}

/** Check now: the owner's watched locations that are not already queued or being checked, queued (the claim is the CAS). */
export async function claimCheckNow(db: Db, userId: string, now: string): Promise<string[]> {
  const won = await db
    .update(gbpGuardLocations)
    .set({ status: "queued", attempts: 0, claimedAt: now, updatedAt: now })
    .where(and(eq(gbpGuardLocations.userId, userId), inArray(gbpGuardLocations.status, ["idle", "checked", "failed"])))
    .returning({ id: gbpGuardLocations.id });
  return won.map((r) => r.id);
}

/** A check's claim: queued → checking; a check whose worker died is free again past the stale cut. */
export const guardCheckJob = defineJob({
  table: gbpGuardLocations,
  rows: (ids: string[]) => inArray(gbpGuardLocations.id, ids),
  status: { column: gbpGuardLocations.status, from: ["queued"], to: "checking" },
  claimedAt: gbpGuardLocations.claimedAt,
  attempts: gbpGuardLocations.attempts,
  set: (now) => ({ updatedAt: now }),
});

/** Checks left queued or checking past `staleBefore` (a lost message, a dead worker), to send again. */
export async function staleChecks(db: Db, staleBefore: string, maxAttempts: number): Promise<string[]> {
  const rows = await db
    .select({ id: gbpGuardLocations.id })
    .from(gbpGuardLocations)
    .where(and(inArray(gbpGuardLocations.status, ["queued", "checking"]), lt(gbpGuardLocations.claimedAt, staleBefore), lt(gbpGuardLocations.attempts, maxAttempts)))
    .limit(200);
  return rows.map((r) => r.id);
}

/** Gives a claimed check back to the queue (Google did not answer; the message is retried). */
export async function releaseCheck(db: Db, id: string, now: string, reason: string) {
  await db
    .update(gbpGuardLocations)
    .set({ status: "queued", lastError: reason, updatedAt: now })
    .where(and(eq(gbpGuardLocations.id, id), eq(gbpGuardLocations.status, "checking")));
}

/** Checks that never finished (dead-lettered, or past their attempts): "could not be checked", with why. */
export async function failChecks(db: Db, ids: string[], now: string, reason: string) {
  if (ids.length === 0) return;
  await db
    .update(gbpGuardLocations)
    .set({ status: "failed", lastError: reason, updatedAt: now })
    .where(and(inArray(gbpGuardLocations.id, ids), inArray(gbpGuardLocations.status, ["queued", "checking"])));
}

export async function watchedLocations(db: Db, userId: string): Promise<GuardLocationRow[]> {
  return db.select().from(gbpGuardLocations).where(eq(gbpGuardLocations.userId, userId)).orderBy(gbpGuardLocations.locationTitle);
}

export async function changesOf(db: Db, userId: string, limit = 50): Promise<GuardChangeRow[]> {
  return db.select().from(gbpGuardChanges).where(eq(gbpGuardChanges.userId, userId)).orderBy(desc(gbpGuardChanges.detectedAt)).limit(limit);
}

export async function unresolvedChanges(db: Db, userId: string, locationName: string): Promise<GuardChangeRow[]> {
  return db
    .select()
    .from(gbpGuardChanges)
    .where(and(eq(gbpGuardChanges.userId, userId), eq(gbpGuardChanges.locationName, locationName), inArray(gbpGuardChanges.status, ["open", "accepting", "rejecting"])));
}

export async function findChange(db: Db, id: string): Promise<GuardChangeRow | null> {
  return (await db.select().from(gbpGuardChanges).where(eq(gbpGuardChanges.id, id)).get()) ?? null;
}

export type NewChange = { userId: string; locationName: string; field: GuardedField; source: GuardChangeSource; before: string; after: string; detectedAt: string };

/** What one check found, written together: new changes, changes Google no longer shows, Google's new value for a known one, the location's row. */
export async function saveCheck(
  db: Db,
  p: {
    location: Pick<GuardLocationRow, "id"> & Partial<GuardLocationRow>;
    inserted: NewChange[];
    gone: string[];
    updatedAfter: { id: string; after: string }[];
    now: string;
  },
): Promise<GuardChangeRow[]> {
  const { id, ...fields } = p.location;
  const rows = p.inserted.map((c) => ({ id: crypto.randomUUID(), ...c }));
  const statements = [
    db
      .update(gbpGuardLocations)
      .set({ ...fields, updatedAt: p.now })
      .where(and(eq(gbpGuardLocations.id, id), eq(gbpGuardLocations.status, "checking"))),
    ...rows.map((r) => db.insert(gbpGuardChanges).values(r).onConflictDoNothing()),
    ...(p.gone.length
      ? [
          db
            .update(gbpGuardChanges)
            .set({ status: "gone", resolvedAt: p.now, updatedAt: p.now })
            .where(and(inArray(gbpGuardChanges.id, p.gone), eq(gbpGuardChanges.status, "open"))),
        ]
      : []),
    ...p.updatedAfter.map((u) => db.update(gbpGuardChanges).set({ after: u.after, updatedAt: p.now }).where(and(eq(gbpGuardChanges.id, u.id), eq(gbpGuardChanges.status, "open")))),
  ] as const;
  const [first, ...rest] = statements;
  await db.batch([first, ...rest]);
  if (rows.length === 0) return [];
  return db.select().from(gbpGuardChanges).where(inArray(gbpGuardChanges.id, rows.map((r) => r.id)));
}

/** open → accepting | rejecting, by compare-and-set: one decision at a time. */
export async function claimDecision(db: Db, id: string, to: "accepting" | "rejecting", now: string): Promise<GuardChangeRow | null> {
  const [row] = await db
    .update(gbpGuardChanges)
    .set({ status: to, error: null, updatedAt: now })
    .where(and(eq(gbpGuardChanges.id, id), eq(gbpGuardChanges.status, "open")))
    .returning();
  return row ?? null;
}

/** The decision's end: decided (and the snapshot's field set to what Google now has from us), or back to open with Google's refusal. */
export async function settleDecision(
  db: Db,
  change: GuardChangeRow,
  outcome: { status: Extract<GuardChangeStatus, "accepted" | "rejected">; by: string; snapshot: string | null } | { status: "open"; error: string },
  now: string,
) {
  const from = inArray(gbpGuardChanges.status, ["accepting", "rejecting"]);
  if (outcome.status === "open") {
    await db.update(gbpGuardChanges).set({ status: "open", error: outcome.error, updatedAt: now }).where(and(eq(gbpGuardChanges.id, change.id), from));
    return;
  }
  const decided = db
    .update(gbpGuardChanges)
    .set({ status: outcome.status, resolvedAt: now, resolvedBy: outcome.by, error: null, updatedAt: now })
    .where(and(eq(gbpGuardChanges.id, change.id), from));
  if (outcome.snapshot === null) {
    await decided;
    return;
  }
  await db.batch([
    decided,
    db
      .update(gbpGuardLocations)
      .set({ snapshot: outcome.snapshot, updatedAt: now })
      .where(and(eq(gbpGuardLocations.userId, change.userId), eq(gbpGuardLocations.locationName, change.locationName))),
  ]);
}

export async function findWatchedLocation(db: Db, userId: string, locationName: string): Promise<GuardLocationRow | null> {
  return (await db.select().from(gbpGuardLocations).where(and(eq(gbpGuardLocations.userId, userId), eq(gbpGuardLocations.locationName, locationName))).get()) ?? null;
}

export async function locationsByIds(db: Db, ids: string[]): Promise<GuardLocationRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(gbpGuardLocations).where(inArray(gbpGuardLocations.id, ids));
}

/** The changes decided in a period (the client's monthly report: "What we did"). */
export async function decidedChanges(db: Db, userId: string, range: { start: string; end: string }): Promise<GuardChangeRow[]> {
  return db
    .select()
    .from(gbpGuardChanges)
    .where(
      and(
        eq(gbpGuardChanges.userId, userId),
        inArray(gbpGuardChanges.status, ["accepted", "rejected"]),
        sql`${gbpGuardChanges.resolvedAt} >= ${range.start} and ${gbpGuardChanges.resolvedAt} < ${range.end}`,
      ),
    )
    .orderBy(gbpGuardChanges.resolvedAt);
}

/** The location's snapshot after the owner's own edit through Porchlight, so the next check does not report it as an outside edit. */
export async function saveSnapshot(db: Db, id: string, snapshot: string) {
  await db.update(gbpGuardLocations).set({ snapshot, updatedAt: new Date().toISOString() }).where(eq(gbpGuardLocations.id, id));
}
