// Billing: the Stripe subscriptions and the webhook events already handled.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, nowIso, timestamps } from "../../platform/db/columns";
import { users } from "../../platform/auth/tables";

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    customerEmail: text("customer_email"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    status: text("status").notNull(),
    plan: text("plan"),
    currentPeriodEnd: text("current_period_end"),
    ...timestamps(),
    /** "month" or "year". */
    interval: text("interval"),
    /** `created` (Unix seconds) of the newest Stripe event applied: an older event never overwrites the state. */
    stateEventCreated: integer("state_event_created").notNull().default(0),
  },
  (t) => [
    index("subscriptions_user_idx").on(t.userId),
    uniqueIndex("subscriptions_stripe_subscription_unique").on(t.stripeSubscriptionId),
  ],
);

/** Stripe webhook events already handled (each event id once). */
export const billingEvents = sqliteTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** The event's own `created` (Unix seconds). */
  eventCreated: integer("event_created").notNull(),
  receivedAt: text("received_at").notNull().default(nowIso),
});
