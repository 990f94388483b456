// The citations capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { citationRoutes } from "./routes";
import { sweepCitations } from "./scan";
import { citationsConsumer, citationsDeadLetters } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/citations", citationRoutes),
  /** Re-scans tracked businesses' citations monthly and sends lost citation messages again. */
  sweep: sweepCitations,
  /** Its queues (wrangler.toml) and their dead-letter queues. */
  queues: { citations: citationsConsumer, "citations-dlq": citationsDeadLetters },
} satisfies Capability;
