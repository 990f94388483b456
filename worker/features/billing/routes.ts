// /api/billing: the caller's checkout links and subscription; /api/billing/webhook: Stripe events, signature-checked.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireUser } from "../../platform/auth/middleware";
import { StripeEvent, verifyStripeSignature } from "../../platform/providers/stripe";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { applyBillingEvent, eventSeen, resolveUserId, subscriptionForUser, type SubscriptionChange } from "./queries";
import { checkoutUrl, type BillingInterval, type BillingResponse } from "./rules/billing";
import { apiError, ErrorCode } from "../../platform/errors";
import { settingsOf } from "../../platform/metering/meter";

const WEBHOOK_MAX_BYTES = 256 * 1024;

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const idOf = (v: unknown): string | null => str(v) ?? (v && typeof v === "object" ? str((v as { id?: unknown }).id) : null);
const isoFromSeconds = (v: unknown): string | null =>
  typeof v === "number" && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null;

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

export const billingRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => {
    const subject = c.get("subject");
    const user = { id: subject.id, email: subject.email };
    const settings = settingsOf(c.env);
    const body: BillingResponse = {
      checkout: {
        monthly: checkoutUrl(c.env.STRIPE_LINK_MONTHLY, user),
        annual: checkoutUrl(c.env.STRIPE_LINK_ANNUAL, user),
      },
      portal: str(c.env.STRIPE_PORTAL_URL),
      subscription: await subscriptionForUser(getDb(c.env), subject.id),
      allowances: { free: settings.allowanceFreeUsd, selfService: settings.allowanceSelfServiceUsd },
    };
    return c.json(body);
  })
  .post(
    "/webhook",
    // Stripe events are a few kilobytes; nothing larger is read into memory.
    bodyLimit({
      maxSize: WEBHOOK_MAX_BYTES,
      onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, "The event body is too large."),
    }),
    async (c) => {
      const secret = c.env.STRIPE_WEBHOOK_SECRET;
      if (!secret) return apiError(c, 501, ErrorCode.notConfigured, "Billing webhooks are not configured on this server.");
      const raw = await c.req.text();
      const check = await verifyStripeSignature(raw, c.req.header("Stripe-Signature"), secret);
      if (!check.ok) return apiError(c, 400, "invalid_signature", check.reason);

      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return apiError(c, 400, ErrorCode.validation, "The event body is not valid JSON.");
      }
      const parsed = StripeEvent.safeParse(json);
      if (!parsed.success) return apiError(c, 400, ErrorCode.validation, "The body is not a Stripe event.");
      const event = parsed.data;
      if (await eventSeen(getDb(c.env), event.id)) return c.json({ received: true, duplicate: true });

      const obj = event.data.object;
      let change: SubscriptionChange | null = null;
      if (event.type === "checkout.session.completed") {
        const subscriptionId = idOf(obj.subscription);
        if (subscriptionId) {
          const email = str((obj.customer_details as Record<string, unknown> | undefined)?.email) ?? str(obj.customer_email);
          change = {
            stripeSubscriptionId: subscriptionId,
            stripeCustomerId: idOf(obj.customer),
            userId: await resolveUserId(getDb(c.env), str(obj.client_reference_id), email),
            customerEmail: email,
            status: obj.payment_status === "unpaid" ? "incomplete" : "active",
            plan: null,
            interval: null,
            currentPeriodEnd: null,
            eventCreated: event.created,
          };
        }
      } else if (event.type.startsWith("customer.subscription.")) {
        change = fromSubscription(obj, event.created, event.type === "customer.subscription.deleted");
      }
      const outcome = await applyBillingEvent(getDb(c.env), event, change);
      return c.json({ received: true, duplicate: outcome === "duplicate" });
    },
  );
