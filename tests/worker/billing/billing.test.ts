// Billing: checkout links and plan for the signed-in user; the Stripe webhook's signature, replay and ordering rules.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../worker/app";
import { signStripePayload } from "../../../worker/platform/providers/stripe";
import { api, BASE, signUp, signUpUnconfirmed } from "../helpers";
import checkoutCompleted from "../../fakes/fixtures/stripe/checkout-session-completed.json";
import subscriptionUpdated from "../../fakes/fixtures/stripe/customer-subscription-updated-item-period.json";

const SECRET = "whsec_test_secret";
const now = () => Math.floor(Date.now() / 1000);

function event(type: string, object: Record<string, unknown>, created = now()) {
  return { id: `evt_${crypto.randomUUID()}`, object: "event", type, created, data: { object } };
}

function subscriptionObject(id: string, status: string, interval: "month" | "year", periodEnd = now() + 30 * 86400) {
  return {
    id,
    object: "subscription",
    customer: "cus_123",
    status,
    items: { data: [{ price: { nickname: "Self Service", recurring: { interval } }, current_period_end: periodEnd }] },
  };
}

async function send(body: unknown, opts: { secret?: string; skewSeconds?: number; extraSignatures?: string[] } = {}) {
  const raw = JSON.stringify(body);
  const t = now() + (opts.skewSeconds ?? 0);
  const v1 = await signStripePayload(raw, opts.secret ?? SECRET, t);
  const header = [`t=${t}`, ...(opts.extraSignatures ?? []).map((s) => `v1=${s}`), `v1=${v1}`].join(",");
  return api("/api/billing/webhook", { method: "POST", body: raw, headers: { "Stripe-Signature": header } });
}

async function subscriptionRow(subId: string) {
  return env.DB.prepare("select * from subscriptions where stripe_subscription_id = ?").bind(subId).first<Record<string, unknown>>();
}

async function checkout(userId: string, subId: string, created = now()) {
  return send(
    event(
      "checkout.session.completed",
      { id: "cs_1", mode: "subscription", client_reference_id: userId, customer: "cus_123", subscription: subId, payment_status: "paid" },
      created,
    ),
  );
}

describe("GET /api/billing", () => {
  it("gives the payment links with the user's id as client reference and the email prefilled, and the portal", async () => {
    const { session, user, email } = await signUp();
    const res = await api("/api/billing", { token: session.access_token });
    expect(res.status).toBe(200);
    const monthly = new URL(res.body.checkout.monthly);
    expect(monthly.origin + monthly.pathname).toBe("https://buy.stripe.test/monthly");
    expect(monthly.searchParams.get("client_reference_id")).toBe(user.id);
    expect(monthly.searchParams.get("prefilled_email")).toBe(email);
    expect(new URL(res.body.checkout.annual).pathname).toBe("/annual");
    expect(res.body.portal).toBe("https://billing.stripe.test/p/login/test");
    expect(res.body.subscription).toBeNull();
  });

  it("has no links when billing is not configured", async () => {
    const { session } = await signUp();
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/api/billing`, { headers: { Authorization: `Bearer ${session.access_token}` } }),
      { ...env, STRIPE_LINK_MONTHLY: "", STRIPE_LINK_ANNUAL: "", STRIPE_PORTAL_URL: "" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(await res.json()).toMatchObject({ checkout: { monthly: null, annual: null }, portal: null });
  });

  it("needs a signed-in user", async () => {
    expect((await api("/api/billing")).status).toBe(401);
  });
});

describe("POST /api/billing/webhook", () => {
  it("links a completed checkout to the user and shows the plan once the subscription event says so", async () => {
    const { session, user } = await signUp();
    const subId = `sub_${crypto.randomUUID()}`;
    const t = now();
    expect((await checkout(user.id, subId, t - 5)).status).toBe(200);
    const res = await send(event("customer.subscription.updated", subscriptionObject(subId, "active", "year"), t));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
    const billing = await api("/api/billing", { token: session.access_token });
    expect(billing.body.subscription).toMatchObject({ status: "active", plan: "Self Service", interval: "year", active: true });
    expect(billing.body.subscription.currentPeriodEnd).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("reads Stripe's documented events as sent (API 2025-03-31.basil: the period end sits on the subscription's item)", async () => {
    const { session, user } = await signUp();
    const subId = `sub_${crypto.randomUUID()}`;
    const t = now();
    // The examples as Stripe documents them (tests/fakes/fixtures/stripe), with this test's ids and times.
    const completed = structuredClone(checkoutCompleted);
    Object.assign(completed, { id: `evt_${crypto.randomUUID()}`, created: t - 5 });
    Object.assign(completed.data.object, { client_reference_id: user.id, subscription: subId });
    expect((await send(completed)).status).toBe(200);
    const updated = structuredClone(subscriptionUpdated);
    Object.assign(updated, { id: `evt_${crypto.randomUUID()}`, created: t });
    updated.data.object.id = subId;
    expect("current_period_end" in updated.data.object).toBe(false);
    expect((await send(updated)).status).toBe(200);
    const billing = await api("/api/billing", { token: session.access_token });
    expect(billing.body.subscription).toMatchObject({ status: "active", plan: "Self Service", interval: "month", active: true });
    const periodEnd = updated.data.object.items.data[0]!.current_period_end;
    expect(billing.body.subscription.currentPeriodEnd).toBe(new Date(periodEnd * 1000).toISOString());
  });

  it("accepts any of several v1 signatures", async () => {
    const res = await send(event("invoice.paid", { id: "in_1" }), { extraSignatures: ["00".repeat(32), "zz"] });
    expect(res.status).toBe(200);
  });

  it.each([
    ["a wrong secret", { secret: "whsec_other" }],
    ["a stale timestamp", { skewSeconds: -301 }],
    // Well past the 300 s tolerance: the worker reads its clock a moment after the test does.
    ["a timestamp from the future", { skewSeconds: 330 }],
  ])("refuses %s with 400 and changes nothing", async (_name, opts) => {
    const { user } = await signUp();
    const subId = `sub_${crypto.randomUUID()}`;
    const body = event("checkout.session.completed", { client_reference_id: user.id, subscription: subId, payment_status: "paid" });
    const res = await send(body, opts);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_signature");
    expect(await subscriptionRow(subId)).toBeNull();
    expect(await env.DB.prepare("select 1 from billing_events where id = ?").bind(body.id).first()).toBeNull();
  });

  it("refuses a missing or malformed signature header and a tampered body", async () => {
    const raw = JSON.stringify(event("invoice.paid", { id: "in_2" }));
    const none = await api("/api/billing/webhook", { method: "POST", body: raw });
    expect(none.status).toBe(400);
    const junk = await api("/api/billing/webhook", { method: "POST", body: raw, headers: { "Stripe-Signature": "nonsense" } });
    expect(junk.status).toBe(400);
    const t = now();
    const sig = await signStripePayload(raw, SECRET, t);
    const tampered = await api("/api/billing/webhook", {
      method: "POST",
      body: raw.replace("in_2", "in_3"),
      headers: { "Stripe-Signature": `t=${t},v1=${sig}` },
    });
    expect(tampered.status).toBe(400);
  });

  it("handles each event id once: a replay changes nothing", async () => {
    const { user } = await signUp();
    const subId = `sub_${crypto.randomUUID()}`;
    await checkout(user.id, subId, now() - 100);
    const cancel = event("customer.subscription.deleted", subscriptionObject(subId, "canceled", "month"), now() - 50);
    expect((await send(cancel)).body.duplicate).toBe(false);
    // A newer event reactivates; replaying the old cancellation must not cancel again.
    await send(event("customer.subscription.updated", subscriptionObject(subId, "active", "month"), now() - 10));
    const replay = await send(cancel);
    expect(replay.status).toBe(200);
    expect(replay.body.duplicate).toBe(true);
    expect((await subscriptionRow(subId))?.status).toBe("active");
  });

  it("never lets a late, older event overwrite a newer state", async () => {
    const { session, user } = await signUp();
    const subId = `sub_${crypto.randomUUID()}`;
    const t = now();
    await send(event("customer.subscription.deleted", subscriptionObject(subId, "canceled", "month"), t));
    // Older events arrive afterwards: the checkout (links the user) and an earlier 'active' update.
    await checkout(user.id, subId, t - 60);
    await send(event("customer.subscription.updated", subscriptionObject(subId, "active", "year"), t - 30));
    const row = await subscriptionRow(subId);
    expect(row).toMatchObject({ status: "canceled", interval: "month", user_id: user.id, state_event_created: t });
    const billing = await api("/api/billing", { token: session.access_token });
    expect(billing.body.subscription).toMatchObject({ status: "canceled", active: false });
  });

  it("ignores a client reference that names no user, keeping the subscription unlinked", async () => {
    const subId = `sub_${crypto.randomUUID()}`;
    const res = await checkout("not-a-user", subId);
    expect(res.status).toBe(200);
    expect((await subscriptionRow(subId))?.user_id).toBeNull();
  });

  it("refuses a signed body that is not a Stripe event with 400", async () => {
    const res = await send({ hello: "world" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
  });

  it("refuses an oversized body with 413 before reading it", async () => {
    const res = await api("/api/billing/webhook", { method: "POST", body: "x".repeat(300 * 1024), headers: { "Stripe-Signature": "t=1,v1=00" } });
    expect(res.status).toBe(413);
  });

  it("answers 501 when no webhook secret is configured", async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/api/billing/webhook`, { method: "POST", body: "{}" }),
      { ...env, STRIPE_WEBHOOK_SECRET: "" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(501);
  });
});

describe("a checkout without client_reference_id", () => {
  it("is matched to a user by email only once that user has confirmed it", async () => {
    const { user, email } = await signUpUnconfirmed();
    const pay = (subId: string) =>
      send(event("checkout.session.completed", { id: "cs_2", mode: "subscription", customer: "cus_9", subscription: subId, payment_status: "paid", customer_details: { email } }));
    const early = `sub_${crypto.randomUUID()}`;
    expect((await pay(early)).status).toBe(200);
    // Anyone can sign up with someone else's address: an unconfirmed one is never given a payment.
    expect((await subscriptionRow(early))!.user_id).toBeNull();
    await env.DB.prepare("update users set email_confirmed_at = ? where id = ?").bind(new Date().toISOString(), user.id).run();
    const later = `sub_${crypto.randomUUID()}`;
    await pay(later);
    expect((await subscriptionRow(later))!.user_id).toBe(user.id);
  });
});
