// Stripe's events, once their signature checks out: read into the subscription change they tell (a finished checkout,
// a subscription created, updated or deleted) and applied in the order of the events' own timestamps.
import { StripeEvent } from "../../platform/providers/stripe";
import type { Db } from "../../platform/db/client";
import { applyBillingEvent, eventSeen, resolveUserId, type SubscriptionChange } from "./queries";
import type { BillingInterval } from "./rules/billing";

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const idOf = (v: unknown): string | null => str(v) ?? (v && typeof v === "object" ? str((v as { id?: unknown }).id) : null);
const isoFromSeconds = (v: unknown): string | null =>
  typeof v === "number" && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null;

/** The event in a signed body, or why it is not one (answered 400). */
export function readStripeEvent(raw: string): { ok: true; event: StripeEvent } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, message: "The event body is not valid JSON." };
  }
  const parsed = StripeEvent.safeParse(json);
  return parsed.success ? { ok: true, event: parsed.data } : { ok: false, message: "The body is not a Stripe event." };
}

/** What a subscription object says: status, plan name, interval and period end (newer API versions keep it on the item). */
function fromSubscription(obj: Record<string, unknown>, created: number, deleted: boolean): SubscriptionChange | null {
  const id = str(obj.id);
  if (!id) return null;
  const item = ((obj.items as { data?: unknown[] } | undefined)?.data?.[0] ?? {}) as Record<string, unknown>;
  const price = (item.price ?? {}) as Record<string, unknown>;
  const recurring = (price.recurring ?? {}) as Record<string, unknown>;
  const interval = recurring.interval === "month" || recurring.interval === "year" ? (recurring.interval as BillingInterval) : null;
  return {
    stripeSubscriptionId: id,
    stripeCustomerId: idOf(obj.customer),
    userId: null,
    customerEmail: null,
    status: deleted ? "canceled" : (str(obj.status) ?? "incomplete"),
    plan: str(price.nickname) ?? str((obj.metadata as Record<string, unknown> | undefined)?.plan) ?? "Self Service",
    interval,
    currentPeriodEnd: isoFromSeconds(obj.current_period_end) ?? isoFromSeconds(item.current_period_end),
    eventCreated: created,
  };
}

/** What a finished checkout says: its subscription, paid or not, and whose it is (by reference or confirmed email). */
async function fromCheckout(db: Db, obj: Record<string, unknown>, created: number): Promise<SubscriptionChange | null> {
  const subscriptionId = idOf(obj.subscription);
  if (!subscriptionId) return null;
  const email = str((obj.customer_details as Record<string, unknown> | undefined)?.email) ?? str(obj.customer_email);
  return {
    stripeSubscriptionId: subscriptionId,
    stripeCustomerId: idOf(obj.customer),
    userId: await resolveUserId(db, str(obj.client_reference_id), email),
    customerEmail: email,
    status: obj.payment_status === "unpaid" ? "incomplete" : "active",
    plan: null,
    interval: null,
    currentPeriodEnd: null,
    eventCreated: created,
  };
}

/** Applies one event once: "duplicate" when it was handled before (Stripe delivers at least once). */
export async function handleStripeEvent(db: Db, event: StripeEvent): Promise<"duplicate" | "applied"> {
  if (await eventSeen(db, event.id)) return "duplicate";
  const obj = event.data.object;
  let change: SubscriptionChange | null = null;
  if (event.type === "checkout.session.completed") change = await fromCheckout(db, obj, event.created);
  else if (event.type.startsWith("customer.subscription.")) change = fromSubscription(obj, event.created, event.type === "customer.subscription.deleted");
  return (await applyBillingEvent(db, event, change)) === "duplicate" ? "duplicate" : "applied";
}
