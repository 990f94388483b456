// The audits capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { auditRoutes } from "./routes";
import { sweepStaleAudits } from "./run";
import { auditsQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/audits", auditRoutes),
  /** Sends unfinished audit steps again. */
  sweep: sweepStaleAudits,
  queues: auditsQueues,
} satisfies Capability;
