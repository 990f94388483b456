// Subscriptions and handled Stripe events. State changes apply in the order of the events' own timestamps.
import { isActiveStatus, type BillingInterval, type SubscriptionDto } from "../domain/billing";

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

export async function eventSeen(d1: D1Database, eventId: string): Promise<boolean> {
  return (await d1.prepare("select 1 from billing_events where id = ?").bind(eventId).first()) !== null;
}

/** A user id for the event: the checkout's client reference if that user exists, else the user with that email. */
export async function resolveUserId(d1: D1Database, reference: string | null, email: string | null): Promise<string | null> {
  if (reference) {
    const row = await d1.prepare("select id from users where id = ?").bind(reference).first<{ id: string }>();
    if (row) return row.id;
  }
  if (email) {
    const row = await d1.prepare("select id from users where email = ? collate nocase").bind(email).first<{ id: string }>();
    if (row) return row.id;
  }
  return null;
}

/**
 * Records the event id and applies its change in one D1 batch (all or nothing). Identity fields fill in
 * whenever known; status, plan, interval and period end change only when this event is not older than
 * the one that last set them. A concurrent second delivery of the same id fails the batch on the primary key.
 */
export async function applyBillingEvent(
  d1: D1Database,
  event: { id: string; type: string; created: number },
  change: SubscriptionChange | null,
): Promise<"applied" | "duplicate"> {
  const statements = [
    d1.prepare("insert into billing_events (id, type, event_created) values (?, ?, ?)").bind(event.id, event.type, event.created),
  ];
  if (change) {
    statements.push(
      d1
        .prepare(
          `insert into subscriptions (id, user_id, customer_email, stripe_customer_id, stripe_subscription_id, status, plan,
             interval, current_period_end, state_event_created)
           values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
           on conflict (stripe_subscription_id) do update set
             user_id = coalesce(subscriptions.user_id, excluded.user_id),
             customer_email = coalesce(excluded.customer_email, subscriptions.customer_email),
             stripe_customer_id = coalesce(excluded.stripe_customer_id, subscriptions.stripe_customer_id),
             status = case when excluded.state_event_created >= subscriptions.state_event_created
               then excluded.status else subscriptions.status end,
             plan = case when excluded.state_event_created >= subscriptions.state_event_created
               then coalesce(excluded.plan, subscriptions.plan) else subscriptions.plan end,
             interval = case when excluded.state_event_created >= subscriptions.state_event_created
               then coalesce(excluded.interval, subscriptions.interval) else subscriptions.interval end,
             current_period_end = case when excluded.state_event_created >= subscriptions.state_event_created
               then coalesce(excluded.current_period_end, subscriptions.current_period_end) else subscriptions.current_period_end end,
             state_event_created = max(subscriptions.state_event_created, excluded.state_event_created),
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`,
        )
        .bind(
          crypto.randomUUID(),
          change.userId,
          change.customerEmail,
          change.stripeCustomerId,
          change.stripeSubscriptionId,
          change.status,
          change.plan,
          change.interval,
          change.currentPeriodEnd,
          change.eventCreated,
        ),
    );
  }
  try {
    await d1.batch(statements);
    return "applied";
  } catch (err) {
    if (/UNIQUE constraint failed: billing_events\.id/i.test(String(err))) return "duplicate";
    throw err;
  }
}

type Row = { status: string; plan: string | null; interval: string | null; current_period_end: string | null };

/** The user's current subscription: an active one first, else the most recently changed. */
export async function subscriptionForUser(d1: D1Database, userId: string): Promise<SubscriptionDto | null> {
  const row = await d1
    .prepare(
      `select status, plan, interval, current_period_end from subscriptions where user_id = ?
       order by status in ('active', 'trialing') desc, state_event_created desc limit 1`,
    )
    .bind(userId)
    .first<Row>();
  if (!row) return null;
  return {
    status: row.status,
    plan: row.plan,
    interval: row.interval === "month" || row.interval === "year" ? row.interval : null,
    currentPeriodEnd: row.current_period_end,
    active: isActiveStatus(row.status),
  };
}
