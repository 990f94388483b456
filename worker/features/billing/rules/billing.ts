// Subscription and billing shapes shared by the worker and the web (spec part 2 §2 Subscription Plans, §7, §9).
// No zod here: the sidebar imports this file, and the app shell must stay small.
/** Spec §9 prices. */
export const SELF_SERVICE_PLAN = { name: "Self Service", monthly: 97, annual: 970 } as const;
/** Spec §8 checkout alert. */
export const CHECKOUT_ERROR = "There was an error redirecting to checkout. Please try again.";
export const BILLING_NOT_CONFIGURED = "Online subscriptions are not open yet, so subscribing here is unavailable right now.";

export type BillingInterval = "month" | "year";

export type SubscriptionDto = {
  status: string;
  plan: string | null;
  interval: BillingInterval | null;
  currentPeriodEnd: string | null;
  /** active or trialing: the plan is in force. */
  active: boolean;
};

export type BillingResponse = {
  /** Checkout links with the user's id as client reference and the email prefilled; null when not configured. */
  checkout: { monthly: string | null; annual: string | null };
  portal: string | null;
  subscription: SubscriptionDto | null;
  /** Each plan's monthly AI allowance in dollars (PLAN_ALLOWANCE_*_USD). */
  allowances: { free: number; selfService: number };
};

const ACTIVE = new Set(["active", "trialing"]);
export function isActiveStatus(status: string): boolean {
  return ACTIVE.has(status);
}

/** The payment link for a user: client_reference_id = user id, the email prefilled (Stripe payment-link parameters). */
export function checkoutUrl(link: string | undefined, user: { id: string; email: string }): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  url.searchParams.set("client_reference_id", user.id);
  if (user.email) url.searchParams.set("prefilled_email", user.email);
  return url.toString();
}

/** The sidebar's short label for a subscription. */
export function planLabel(sub: SubscriptionDto | null): string {
  if (!sub || !sub.active) return "Free";
  const per = sub.interval === "year" ? "Annual" : sub.interval === "month" ? "Monthly" : null;
  return [sub.plan ?? SELF_SERVICE_PLAN.name, per].filter(Boolean).join(" · ");
}
