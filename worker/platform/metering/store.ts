// The meter's store: counters per cap and period, and open reservations. A reservation checks every cap and adds
// to all of them in one conditional UPDATE (all or none), inside one batch (one round trip, one transaction).
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Cap } from "../../domain/metering";
import type { Db } from "../db/client";
import { meterCounters, meterReservations } from "./tables";

export type Reservation = { id: string; keys: string[]; amountMicro: number };

export type ReserveOutcome =
  | { ok: true; reservation: Reservation }
  /** `totals`: each cap's counter (settled + reserved) as the refused statement saw it. */
  | { ok: false; totals: Map<string, number> };

/** True when every cap has room for `amount` more: one uncorrelated subquery, evaluated once per statement. */
function everyCapHasRoom(caps: Cap[], amount: number): SQL {
  const room = caps.map(
    (cap) => sql`(${meterCounters.key} = ${cap.key} and ${meterCounters.reservedMicro} + ${meterCounters.settledMicro} + ${amount} <= ${cap.limitMicro})`,
  );
  return sql`(select count(*) from ${meterCounters} where ${sql.join(room, sql` or `)}) = ${caps.length}`;
}

/**
 * The reservation's statements, for `reserve` or for a caller that runs them at the end of its own batch (one round
 * trip for its reads and the reservation). `onlyIf`: reserved only when it holds too (evaluated in the same
 * transaction, after the caller's statements before these); `read` takes the four statements' results, in order.
 */
export function reserveStatements(db: Db, caps: Cap[], amountMicro: number, now = new Date(), onlyIf?: SQL) {
  const id = crypto.randomUUID();
  const keys = caps.map((c) => c.key);
  const room = onlyIf ? and(everyCapHasRoom(caps, amountMicro), onlyIf)! : everyCapHasRoom(caps, amountMicro);
  const statements = [
    db
      .insert(meterCounters)
      .values(caps.map((c) => ({ key: c.key, expiresAt: c.expiresAt })))
      .onConflictDoNothing(),
    // One row (the first cap's counter, made just above) when every cap has room, none otherwise.
    db.insert(meterReservations).select(
      db
        .select({
          id: sql<string>`${id}`.as("id"),
          keys: sql<string>`${JSON.stringify(keys)}`.as("keys"),
          amountMicro: sql<number>`${amountMicro}`.as("amount_micro"),
          createdAt: sql<string>`${now.toISOString()}`.as("created_at"),
        })
        .from(meterCounters)
        .where(and(eq(meterCounters.key, keys[0]!), room)),
    ),
    db
      .update(meterCounters)
      .set({ reservedMicro: sql`${meterCounters.reservedMicro} + ${amountMicro}` })
      .where(and(inArray(meterCounters.key, keys), room))
      .returning({ key: meterCounters.key }),
    db
      .select({ key: meterCounters.key, reserved: meterCounters.reservedMicro, settled: meterCounters.settledMicro })
      .from(meterCounters)
      .where(inArray(meterCounters.key, keys)),
  ] as const;
  const read = (results: readonly unknown[]): ReserveOutcome => {
    const [, , taken, after] = results as [unknown, unknown, { key: string }[], { key: string; reserved: number; settled: number }[]];
    return taken.length === caps.length ? { ok: true, reservation: { id, keys, amountMicro } } : { ok: false, totals: new Map(after.map((r) => [r.key, r.reserved + r.settled])) };
  };
  return { statements, read };
}

/**
 * Reserves `amountMicro` against every cap, or against none. The batch makes the counter rows, records the
 * reservation and adds to the counters under the same condition, so two parallel reservations can never both
 * take the last room of a cap: D1 runs a batch as one transaction, one at a time.
 */
export async function reserve(db: Db, caps: Cap[], amountMicro: number, now = new Date()): Promise<ReserveOutcome> {
  const { statements, read } = reserveStatements(db, caps, amountMicro, now);
  return read(await db.batch(statements));
}

/**
 * Moves the reservation to the real figure (`actualMicro`; 0 releases it). Idempotent: only a reservation still
 * open changes the counters, so a settle after the sweep, or twice, counts nothing twice.
 */
export async function settle(db: Db, reservation: Reservation, actualMicro: number): Promise<void> {
  await db.batch(settleStatements(db, reservation, actualMicro));
}

/** `settle`'s statements, for a caller that settles beside its own writes in one batch (one round trip). */
export function settleStatements(db: Db, reservation: Reservation, actualMicro: number) {
  const open = sql`exists (select 1 from ${meterReservations} where ${meterReservations.id} = ${reservation.id})`;
  return [
    db
      .update(meterCounters)
      .set({
        reservedMicro: sql`max(${meterCounters.reservedMicro} - ${reservation.amountMicro}, 0)`,
        settledMicro: sql`${meterCounters.settledMicro} + ${actualMicro}`,
      })
      .where(and(inArray(meterCounters.key, reservation.keys), open)),
    db.delete(meterReservations).where(eq(meterReservations.id, reservation.id)),
  ] as const;
}

/**
 * Settles every reservation older than `before` at its estimate, and drops counters long past their period. A
 * reservation still open then lost its settle (the visitor left and the request was cancelled, or the worker died
 * mid-call); the provider most likely billed the call, so its estimate stays spent: giving it back at zero refilled
 * the caps every sweep (issue 26).
 */
export async function sweepMeter(db: Db, before: Date, countersExpiredBefore: Date): Promise<void> {
  const cut = before.toISOString();
  const stale = sql`select r.amount_micro as amount, j.value as key from ${meterReservations} r, json_each(r.keys) j where r.created_at < ${cut}`;
  const staleSum = sql`coalesce((select sum(s.amount) from (${stale}) s where s.key = ${meterCounters.key}), 0)`;
  await db.batch([
    db
      .update(meterCounters)
      .set({
        reservedMicro: sql`max(${meterCounters.reservedMicro} - ${staleSum}, 0)`,
        settledMicro: sql`${meterCounters.settledMicro} + ${staleSum}`,
      })
      .where(sql`${meterCounters.key} in (select s.key from (${stale}) s)`),
    db.delete(meterReservations).where(lt(meterReservations.createdAt, cut)),
    db.delete(meterCounters).where(lt(meterCounters.expiresAt, countersExpiredBefore.toISOString())),
  ]);
}

export type CounterTotals = { reservedMicro: number; settledMicro: number };

/** One counter's figures (zero when it has no row yet). */
export function counterQuery(db: Db, key: string) {
  return db
    .select({ reservedMicro: meterCounters.reservedMicro, settledMicro: meterCounters.settledMicro })
    .from(meterCounters)
    .where(eq(meterCounters.key, key))
    .limit(1);
}

export async function readCounter(db: Db, key: string): Promise<CounterTotals> {
  const [row] = await counterQuery(db, key);
  return row ?? { reservedMicro: 0, settledMicro: 0 };
}
