// Worker entry: HTTP through the Hono app, queue batches to their consumers, the cron sweep.
import { sweepAlertsAndWebhooks } from "./platform/notifications/webhooks";
import { handleQueue } from "./queues";
import app from "./app";
import type { Env } from "./platform/env";
import { sweepReservations } from "./platform/metering/meter";
import { getDb } from "./platform/db/client";
import { deleteExpiredWindows } from "./platform/db/rate-limits";
import { capabilities } from "./registry";
// The web app's views for the pages the worker renders (the shared report), handed over before any request.
import "./ssr";

export default {
  fetch: app.fetch,
  queue: handleQueue,
  // wrangler.toml's cron (every 5 minutes): the platform gives back meter reservations of calls whose worker died, deletes
  // rate-limit windows that are over, mails the lead alerts' digests that are due and queues webhook deliveries whose
  // message was lost; each capability runs its own sweep beside them (its index.ts says what it re-sends or starts).
  async scheduled(_controller, env, _ctx) {
    await Promise.all([
      sweepReservations(env),
      deleteExpiredWindows(getDb(env)),
      sweepAlertsAndWebhooks(env),
      ...capabilities.map((capability) => ("sweep" in capability ? capability.sweep(env) : null)),
    ]);
  },
} satisfies ExportedHandler<Env>;
