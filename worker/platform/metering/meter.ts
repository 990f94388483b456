// Every paid call goes through here: reserve an estimate against its caps (refused: the provider is never called),
// make the call, then settle to the real figure, or release on failure. Providers are called only by callers of
// `reserveCall` / `metered` (or `reserveCallInBatch`); tests/worker/platform/metering.test.ts keeps a table of every route that reaches a provider.
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, type Db } from "../db/client";
import { readAllowance } from "./budgets";
import { readCounter, reserve, reserveStatements, settle, settleStatements, sweepMeter, type Reservation, type ReserveOutcome } from "./store";
import {
  actualMicro,
  ADDRESS_CAP_MESSAGE,
  capRefusing,
  capsFor,
  EMAIL_UNCONFIRMED_MESSAGE,
  estimateMicro,
  FREE_POOL_MESSAGE,
  freePoolCapKey,
  freePoolLimitMicro,
  fromMicro,
  globalCapKey,
  mustConfirmEmail,
  meterSettings,
  toMicro,
  RESERVATION_TTL_MS,
  SPEND_CEILING_MESSAGE,
  WIDGET_CAP_MESSAGE,
  type CallUsage,
  type Cap,
  type CapScope,
  type MeterSettings,
  type PaidCall,
  type Payer,
} from "../../domain/metering";
import { budgetExceededMessage, monthWindow } from "./rules/budget";
import { ErrorCode } from "../errors";
import type { Env } from "../env";
import { log } from "../log";

/** The error code of a paid call refused because the customer's address is not confirmed yet (issue 39). */
export const EMAIL_UNCONFIRMED_CODE = "email_unconfirmed";

export type Refusal = {
  /** `email`: the payer must confirm their address first (no cap was looked at). */
  scope: CapScope | "email";
  /** `ai_budget_exceeded` for the user's allowance; the others say which cap. */
  code: string;
  message: string;
};

/** An open reservation: settle it with what the call used, or release it. Both are idempotent. */
export type Ticket = {
  readonly reservation: Reservation;
  settle(usage: CallUsage): Promise<void>;
  release(): Promise<void>;
  /**
   * `settle` beside the caller's own writes, in one batch (one round trip, one transaction): answers their results.
   * When the batch fails, neither happened and the reservation stays open (to settle again, or the sweep's).
   */
  settleWith(usage: CallUsage, statements: readonly BatchItem<"sqlite">[]): Promise<unknown[]>;
};

export type ReserveResult = { ok: true; ticket: Ticket } | { ok: false; refusal: Refusal };

export function settingsOf(env: Env): MeterSettings {
  return meterSettings(env);
}

/** The payer for a signed-in user's call (admins' prospect work too): their allowance is read here. */
export async function userPayer(env: Env, db: Db, userId: string, now = new Date()): Promise<Payer> {
  const read = await readAllowance(db, userId, settingsOf(env), now);
  return { kind: "user", userId, allowanceUsd: read.allowance.monthlyUsd, pool: read.pool, emailConfirmed: read.emailConfirmed };
}

/** The refusal of every paid call by a customer whose address is not confirmed: before any cap, so it spends nothing. */
export const EMAIL_UNCONFIRMED_REFUSAL: Refusal = { scope: "email", code: EMAIL_UNCONFIRMED_CODE, message: EMAIL_UNCONFIRMED_MESSAGE };

function refusalFor(scope: CapScope, payer: Payer, now: Date): Refusal {
  switch (scope) {
    case "user":
      return {
        scope,
        code: ErrorCode.budgetExceeded,
        message: budgetExceededMessage({ monthly_usd: payer.kind === "user" ? payer.allowanceUsd : 0, resets_at: monthWindow(now).end }),
      };
    case "widget":
      return { scope, code: "widget_spend_cap_reached", message: WIDGET_CAP_MESSAGE };
    case "free":
      return { scope, code: "free_pool_reached", message: FREE_POOL_MESSAGE };
    case "global":
      return { scope, code: "spend_ceiling_reached", message: SPEND_CEILING_MESSAGE };
    case "report":
      return { scope, code: "report_cap_reached", message: "This chat has reached its daily AI limit, so replies come from the local fallback system until tomorrow." };
    case "address":
      return { scope, code: "address_cap_reached", message: ADDRESS_CAP_MESSAGE };
  }
}

/**
 * Whether a run estimated at `estimateMicro` fits what is left of the user's allowance this month, of the Free pool
 * (a Free account) and of the operator's daily ceiling (checked before a fan-out makes any call: a run past it is
 * refused with 402). `emailUnconfirmed`: the account may not spend at all yet (the route answers 403, issue 39).
 */
export async function fitsAllowance(
  env: Env,
  db: Db,
  userId: string,
  estimate: number,
  now = new Date(),
): Promise<{ allowed: boolean; allowanceLeftUsd: number | null; emailUnconfirmed: boolean }> {
  const { perUser, ceilingOk, freePoolOk } = await fitsSelection(env, db, [{ userId, micro: estimate }], now);
  const one = perUser[0]!;
  return { allowed: one.allowed && ceilingOk && freePoolOk, allowanceLeftUsd: one.allowanceLeftUsd, emailUnconfirmed: one.emailUnconfirmed };
}

/**
 * Runs for several payers at once (an agency's bulk action, issue 41): each payer's estimate against its own allowance,
 * and their sum against the operator's daily ceiling and (the Free accounts' share of it) the Free pool. Nothing is
 * reserved: each run reserves its own calls as it makes them.
 */
export async function fitsSelection(env: Env, db: Db, items: readonly { userId: string; micro: number }[], now = new Date()) {
  const settings = settingsOf(env);
  const [reads, global, free] = await Promise.all([
    Promise.all(items.map((item) => readAllowance(db, item.userId, settings, now))),
    readCounter(db, globalCapKey(now)),
    readCounter(db, freePoolCapKey(now)),
  ]);
  const perUser = items.map((item, k) => {
    const read = reads[k]!;
    const monthly = read.allowance.monthlyUsd;
    const leftMicro = monthly === null ? null : Math.max(0, toMicro(monthly) - read.reservedMicro - read.settledMicro);
    const emailUnconfirmed = mustConfirmEmail({ kind: "user", userId: item.userId, allowanceUsd: monthly, pool: read.pool, emailConfirmed: read.emailConfirmed });
    return {
      userId: item.userId,
      allowed: !emailUnconfirmed && (leftMicro === null || item.micro <= leftMicro),
      allowanceLeftUsd: leftMicro === null ? null : fromMicro(leftMicro),
      emailUnconfirmed,
    };
  });
  const total = items.reduce((sum, i) => sum + i.micro, 0);
  const freeTotal = items.reduce((sum, i, k) => sum + (reads[k]!.pool === "free" ? i.micro : 0), 0);
  const ceilingLeft = toMicro(settings.ceilingDailyUsd) - global.reservedMicro - global.settledMicro;
  const freeLeft = freePoolLimitMicro(settings) - free.reservedMicro - free.settledMicro;
  return {
    perUser,
    totalUsd: fromMicro(total),
    ceilingLeftUsd: fromMicro(Math.max(0, ceilingLeft)),
    ceilingOk: total <= ceilingLeft,
    freePoolOk: freeTotal <= freeLeft,
  };
}

/** Reserves the call's estimate against every cap of the payer, or refuses naming the cap that would be passed. */
export async function reserveCall(env: Env, payer: Payer, call: PaidCall, now = new Date()): Promise<ReserveResult> {
  if (mustConfirmEmail(payer)) return refusedUnconfirmed(call);
  const db = getDb(env);
  const caps = capsFor(payer, settingsOf(env), now);
  const amount = estimateMicro(call);
  return ticketFor(db, payer, caps, call, amount, await reserve(db, caps, amount, now), now);
}

/**
 * The same reservation as statements for the caller's own batch (its reads and the reservation in one round trip),
 * taken only when `onlyIf` holds as well. A caller whose call turns out to cost more than was reserved (its prompt
 * was not known when the batch was made) releases it and reserves again with `reserveCall`.
 */
export function reserveCallInBatch(env: Env, db: Db, payer: Payer, call: PaidCall, onlyIf: SQL, now = new Date()) {
  const batched = reserveCallsInBatch(env, db, payer, [{ call, onlyIf }], now);
  return {
    statements: batched.statements,
    /** The ticket, or the refusal naming the cap, from the statements' results; only meaningful when `onlyIf` held. */
    result: (results: readonly unknown[]): ReserveResult => batched.resultAt(results, 0),
  };
}

/**
 * `reserveCallInBatch` for several calls at once (a queue message's answers): each reserved only when its own `onlyIf`
 * holds (e.g. its claim succeeded earlier in the same batch). `resultAt(results, i)` is the i-th call's ticket or
 * refusal, from the statements' results; only meaningful when its `onlyIf` held.
 */
export function reserveCallsInBatch(env: Env, db: Db, payer: Payer, calls: readonly { call: PaidCall; onlyIf: SQL }[], now = new Date()) {
  // An unconfirmed customer's calls take no statement: each answers the same refusal.
  if (mustConfirmEmail(payer)) return { statements: [], resultAt: (_results: readonly unknown[], i: number): ReserveResult => refusedUnconfirmed(calls[i]!.call) };
  const caps = capsFor(payer, settingsOf(env), now);
  const parts = calls.map(({ call, onlyIf }) => {
    const amountMicro = estimateMicro(call);
    return { call, amountMicro, ...reserveStatements(db, caps, amountMicro, now, onlyIf) };
  });
  const offsets = parts.map((_, i) => parts.slice(0, i).reduce((n, p) => n + p.statements.length, 0));
  return {
    statements: parts.flatMap((p) => [...p.statements]),
    resultAt: (results: readonly unknown[], i: number): ReserveResult => {
      const part = parts[i]!;
      return ticketFor(db, payer, caps, part.call, part.amountMicro, part.read(results.slice(offsets[i], offsets[i]! + part.statements.length)), now);
    },
  };
}

function refusedUnconfirmed(call: PaidCall): ReserveResult {
  log.info("meter: refused", { scope: "email", kind: call.kind });
  return { ok: false, refusal: EMAIL_UNCONFIRMED_REFUSAL };
}

function ticketFor(db: Db, payer: Payer, caps: Cap[], call: PaidCall, amount: number, outcome: ReserveOutcome, now: Date): ReserveResult {
  if (!outcome.ok) {
    const cap = capRefusing(caps, outcome.totals, amount) ?? caps[caps.length - 1]!;
    log.info("meter: refused", { scope: cap.scope, kind: call.kind, amountMicro: amount });
    return { ok: false, refusal: refusalFor(cap.scope, payer, now) };
  }
  const reservation = outcome.reservation;
  let closed = false;
  const close = async (micro: number) => {
    if (closed) return;
    closed = true;
    try {
      await settle(db, reservation, micro);
    } catch (error) {
      // Not lost: the cron sweep settles an open reservation at its estimate after RESERVATION_TTL_MS.
      log.error("meter: settle failed", { reservation: reservation.id }, error);
    }
  };
  return {
    ok: true,
    ticket: {
      reservation,
      settle: (usage) => close(actualMicro(usage)),
      release: () => close(0),
      settleWith: async (usage, statements) => {
        const settling = closed ? [] : settleStatements(db, reservation, actualMicro(usage));
        const all = [...statements, ...settling];
        if (all.length === 0) return [];
        const results = (await db.batch(all as unknown as Parameters<Db["batch"]>[0])) as unknown as unknown[];
        closed = true;
        return results.slice(0, statements.length);
      },
    },
  };
}

export type MeteredResult<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/**
 * reserve → call → settle | release. `run` answers its value and what it used; when it throws, the reservation
 * is released (or settled to `usageOnError(error)` when a failed call still cost something) and the error rethrown.
 */
export async function metered<T>(
  env: Env,
  payer: Payer,
  call: PaidCall,
  run: () => Promise<{ value: T; usage: CallUsage | null }>,
  usageOnError?: (error: unknown) => CallUsage | null,
): Promise<MeteredResult<T>> {
  const reserved = await reserveCall(env, payer, call);
  if (!reserved.ok) return reserved;
  let result: { value: T; usage: CallUsage | null };
  try {
    result = await run();
  } catch (error) {
    const usage = usageOnError?.(error) ?? null;
    await (usage ? reserved.ticket.settle(usage) : reserved.ticket.release());
    throw error;
  }
  await (result.usage ? reserved.ticket.settle(result.usage) : reserved.ticket.release());
  return { ok: true, value: result.value };
}

/** The cron: reservations older than their time-to-live settle at their estimate; counters a week past their period are dropped. */
export async function sweepReservations(env: Env, now = Date.now()): Promise<void> {
  await sweepMeter(getDb(env), new Date(now - RESERVATION_TTL_MS), new Date(now - 7 * 86_400_000));
}
