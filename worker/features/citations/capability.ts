// The citations capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { citationRoutes } from "./routes";
import { sweepCitations } from "./scan";
import { citationsQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/citations", citationRoutes),
  /** Re-scans tracked businesses' citations monthly and sends lost citation messages again. */
  sweep: sweepCitations,
  queues: citationsQueues,
} satisfies Capability;
