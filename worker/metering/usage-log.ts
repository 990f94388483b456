// Paid calls that are not AI completions (voice, search) are logged as usage rows too, so the usage screens and
// their sums show every dollar the meter settled.
import type { Context } from "hono";
import type { AppEnv } from "../context";
import { usageCostUsd, type CallUsage } from "../domain/metering";
import { log } from "../log";
import { usageEvent } from "../providers/ai";
import type { UsageEventMessage } from "../env";

/** Puts one usage row on `usage-events`; logging never fails the request, and finishes after the answer when it can. */
export function sendUsageEvent(c: Context<AppEnv>, event: UsageEventMessage): void {
  const sent = c.env.USAGE_EVENTS.send(event).catch((error) => log.error("usage-events send failed", { eventId: event.event_id }, error));
  try {
    c.executionCtx.waitUntil(sent);
  } catch {
    void sent;
  }
}

export function logPaidCall(
  c: Context<AppEnv>,
  input: { userId: string | null; toolName: string; model: string; usage: CallUsage; detail: Record<string, unknown> },
): void {
  const event = usageEvent({
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
  sendUsageEvent(c, event);
}
