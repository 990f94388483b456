// Worker entry: HTTP through the Hono app, queue batches to their consumers.
import app from "./app";
import type { Env } from "./env";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
