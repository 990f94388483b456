// Paid calls that are not AI completions (voice, search) are logged as usage rows too, so the usage screens and
// their sums show every dollar the meter settled.
import type { Context } from "hono";
import type { AppEnv } from "../context";
import { TTS_MODEL } from "../providers/tts";
import { usageCostUsd, type CallUsage, type PaidCall, type Payer } from "../../domain/metering";
import { log } from "../log";
import { usageEvent } from "../providers/ai";
import type { Env, UsageEventMessage } from "../env";
import type { SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import type { ProviderFailure } from "../providers/json-get";
import { reserveCall, reserveCallsInBatch, type ReserveResult } from "./meter";

/** Puts one usage row on `usage-events`; logging never fails the request, and finishes after the answer when it can. */
export function sendUsageEvent(c: Context<AppEnv>, event: UsageEventMessage): void {
  const sent = c.env.USAGE_EVENTS.send(event).catch((error) => log.error("usage-events send failed", { eventId: event.event_id }, error));
  try {
    c.executionCtx.waitUntil(sent);
  } catch {
    void sent;
  }
}

type PaidCallLog = { userId: string | null; toolName: string; model: string; usage: CallUsage; detail: Record<string, unknown> };

function paidCallEvent(input: PaidCallLog): UsageEventMessage {
  return usageEvent({
    userId: input.userId,
    toolName: input.toolName,
    model: input.model,
    prompt: "",
    response: "",
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    costUsd: usageCostUsd(input.usage),
    requestData: input.detail,
    responseData: null,
  });
}

export function logPaidCall(c: Context<AppEnv>, input: PaidCallLog): void {
  sendUsageEvent(c, paidCallEvent(input));
}

/** The usage rows' model column for a paid call that is not an AI completion. */
const PAID_CALL_MODEL: Record<Exclude<CallUsage["kind"], "ai">, string> = { search: "serpapi", pagespeed: "pagespeed", tts: TTS_MODEL, sms: "twilio-sms", mail: "review-mail", ai_engine: "ai-visibility" };

/**
 * `reserveCall` for work that runs outside a request (grid points, rank checks, audit steps): settling also logs
 * one usage row under the feature's name, so every metered call appears by tool on the usage screens and their
 * sums match what the allowance counts. A failed call is released and logs nothing, as it costs nothing.
 */
export async function reserveLoggedCall(env: Env, payer: Payer, call: Exclude<PaidCall, { kind: "ai" }>, toolName: string): Promise<ReserveResult> {
  return logged(env, payer, toolName, await reserveCall(env, payer, call));
}

/**
 * One search or page-speed call made outside a request: reserve, call, settle it as one call (or release when it
 * failed or threw: the provider bills only answers). A refusal from the meter is the call's failure, not retried.
 */
export async function meteredProviderCall<T extends { ok: boolean }>(
  env: Env,
  payer: Payer,
  call: { kind: "search" | "pagespeed" },
  toolName: string,
  run: () => Promise<T>,
): Promise<T | ProviderFailure> {
  const reserved = await reserveLoggedCall(env, payer, call, toolName);
  if (!reserved.ok) return { ok: false, reason: reserved.refusal.message, retryable: false };
  let out: T;
  try {
    out = await run();
  } catch (error) {
    await reserved.ticket.release();
    throw error;
  }
  await (out.ok ? reserved.ticket.settle({ kind: call.kind, calls: 1 }) : reserved.ticket.release());
  return out;
}

/**
 * `reserveLoggedCall` for several calls in the caller's own batch (`reserveCallsInBatch`): a queue message's claims
 * and their reservations in one round trip. `resultAt(results, i)`: the i-th call's logged ticket, or its refusal.
 */
export function reserveLoggedCallsInBatch(env: Env, db: Db, payer: Payer, calls: readonly { call: Exclude<PaidCall, { kind: "ai" }>; onlyIf: SQL }[], toolName: string) {
  const batched = reserveCallsInBatch(env, db, payer, calls);
  return { statements: batched.statements, resultAt: (results: readonly unknown[], i: number) => logged(env, payer, toolName, batched.resultAt(results, i)) };
}

/** The ticket whose settle also logs the call's usage row (once). */
function logged(env: Env, payer: Payer, toolName: string, reserved: ReserveResult): ReserveResult {
  if (!reserved.ok) return reserved;
  const { ticket } = reserved;
  let sent = false;
  const logOnce = async (usage: CallUsage) => {
    if (sent || usage.kind === "ai") return;
    sent = true;
    const event = paidCallEvent({ userId: payer.kind === "user" ? payer.userId : null, toolName, model: PAID_CALL_MODEL[usage.kind], usage, detail: { kind: usage.kind } });
    await env.USAGE_EVENTS.send(event).catch((error) => log.error("usage-events send failed", { eventId: event.event_id }, error));
  };
  return {
    ok: true,
    ticket: {
      reservation: ticket.reservation,
      release: () => ticket.release(),
      settle: async (usage) => {
        await ticket.settle(usage);
        await logOnce(usage);
      },
      settleWith: async (usage, statements) => {
        const results = await ticket.settleWith(usage, statements);
        await logOnce(usage);
        return results;
      },
    },
  };
}
