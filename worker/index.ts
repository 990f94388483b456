// Worker entry: HTTP through the Hono app, queue batches to their consumers, the cron sweep.
import { handleQueue } from "../queues";
import app from "./app";
import type { Env } from "./env";
import { sweepStaleReports } from "./reports/generate";

export default {
  fetch: app.fetch,
  queue: handleQueue,
  // wrangler.toml's cron (every 5 minutes): re-queue reports whose generation went stale.
  async scheduled(_controller, env, _ctx) {
    await sweepStaleReports(env);
  },
} satisfies ExportedHandler<Env>;
