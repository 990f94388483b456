// /api/billing: the caller's checkout links and subscription; /api/billing/webhook: Stripe events, signature-checked.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireUser } from "../../platform/auth/middleware";
import { verifyStripeSignature } from "../../platform/providers/stripe";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { subscriptionForUser } from "./queries";
import { checkoutUrl, type BillingResponse } from "./rules/billing";
import { handleStripeEvent, readStripeEvent } from "./webhook";
import { apiError, ErrorCode } from "../../platform/errors";
import { settingsOf } from "../../platform/metering/meter";

const WEBHOOK_MAX_BYTES = 256 * 1024;

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
      portal: c.env.STRIPE_PORTAL_URL || null,
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
      const read = readStripeEvent(raw);
      if (!read.ok) return apiError(c, 400, ErrorCode.validation, read.message);
      const outcome = await handleStripeEvent(getDb(c.env), read.event);
      return c.json({ received: true, duplicate: outcome === "duplicate" });
    },
  );
