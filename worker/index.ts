// Worker entry: HTTP through the Hono app, queue batches to their consumers, the cron sweep.
import { handleQueue } from "../queues";
import app from "./app";
import type { Env } from "./env";

export default {
  fetch: app.fetch,
  queue: handleQueue,
} satisfies ExportedHandler<Env>;
