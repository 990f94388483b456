// Subscriptions and handled Stripe events. State changes apply in the order of the events' own timestamps.
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { isActiveStatus, type BillingInterval, type SubscriptionDto } from "./rules/billing";
import { isUniqueViolation, type Db } from "../../platform/db/client";
import { users } from "../../platform/auth/tables";
import { billingEvents, subscriptions } from "./tables";

/** The subscription fields one Stripe event tells us; null means "this event does not say". */
export type SubscriptionChange = {
  stripeSubscriptionId: string;
  stripeCustomerId: string | null;
  userId: string | null;
  customerEmail: string | null;
  status: string;
  plan: string | null;
  interval: BillingInterval | null;
  currentPeriodEnd: string | null;
  /** The event's own `created` (Unix seconds). */
  eventCreated: number;
};

export async function eventSeen(db: Db, eventId: string): Promise<boolean> {
  return (await db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, eventId)).limit(1)).length > 0;
}

/**
 * A user id for the event: the checkout's client reference if that user exists, else the user with that email,
 * only once that user has confirmed it (anyone can sign up with someone else's address and wait for their payment).
 */
export async function resolveUserId(db: Db, reference: string | null, email: string | null): Promise<string | null> {
  if (reference) {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, reference)).limit(1);
    if (row) return row.id;
  }
  if (email) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`${users.email} = ${email} collate nocase`, isNotNull(users.emailConfirmedAt)))
      .limit(1);
    if (row) return row.id;
  }
  return null;
}

/** Takes this event's state only when it is not older than the one that last set the subscription's state. */
function ifNewer(column: SQLiteColumn, keepWhenNull = true) {
  const incoming = keepWhenNull ? sql`coalesce(excluded.${sql.identifier(column.name)}, ${column})` : sql`excluded.${sql.identifier(column.name)}`;
  return sql`case when excluded.state_event_created >= ${subscriptions.stateEventCreated} then ${incoming} else ${column} end`;
}

/**
 * Records the event id and applies its change in one batch (all or nothing). Identity fields fill in
 * whenever known; status, plan, interval and period end change only when this event is not older than
 * the one that last set them. A concurrent second delivery of the same id fails the batch on the primary key.
 */
export async function applyBillingEvent(
  db: Db,
  event: { id: string; type: string; created: number },
  change: SubscriptionChange | null,
): Promise<"applied" | "duplicate"> {
  const recordEvent = db.insert(billingEvents).values({ id: event.id, type: event.type, eventCreated: event.created });
  try {
    if (!change) {
      await db.batch([recordEvent]);
      return "applied";
    }
    const upsert = db
      .insert(subscriptions)
      .values({
        id: crypto.randomUUID(),
        userId: change.userId,
        customerEmail: change.customerEmail,
        stripeCustomerId: change.stripeCustomerId,
        stripeSubscriptionId: change.stripeSubscriptionId,
        status: change.status,
        plan: change.plan,
        interval: change.interval,
        currentPeriodEnd: change.currentPeriodEnd,
        stateEventCreated: change.eventCreated,
      })
      .onConflictDoUpdate({
        target: subscriptions.stripeSubscriptionId,
        set: {
          userId: sql`coalesce(${subscriptions.userId}, excluded.user_id)`,
          customerEmail: sql`coalesce(excluded.customer_email, ${subscriptions.customerEmail})`,
          stripeCustomerId: sql`coalesce(excluded.stripe_customer_id, ${subscriptions.stripeCustomerId})`,
          status: ifNewer(subscriptions.status, false),
          plan: ifNewer(subscriptions.plan),
          interval: ifNewer(subscriptions.interval),
          currentPeriodEnd: ifNewer(subscriptions.currentPeriodEnd),
          stateEventCreated: sql`max(${subscriptions.stateEventCreated}, excluded.state_event_created)`,
          updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ','now')`,
        },
      });
    await db.batch([recordEvent, upsert]);
    return "applied";
  } catch (err) {
    if (isUniqueViolation(err, "billing_events.id")) return "duplicate";
    throw err;
  }
}

/** The user's current subscription: an active one first, else the most recently changed. */
export async function subscriptionForUser(db: Db, userId: string): Promise<SubscriptionDto | null> {
  const [row] = await db
    .select({ status: subscriptions.status, plan: subscriptions.plan, interval: subscriptions.interval, current_period_end: subscriptions.currentPeriodEnd })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(sql`${subscriptions.status} in ('active', 'trialing') desc`, desc(subscriptions.stateEventCreated))
    .limit(1);
  if (!row) return null;
  return {
    status: row.status,
    plan: row.plan,
    interval: row.interval === "month" || row.interval === "year" ? row.interval : null,
    currentPeriodEnd: row.current_period_end,
    active: isActiveStatus(row.status),
  };
}
