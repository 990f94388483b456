// The rank capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { rankRoutes, sharedGridRoutes } from "./routes";
import { sweepRank } from "./tracker";
import { rankChecksQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/rank", rankRoutes)
    .route("/api/shared/grids", sharedGridRoutes),
  /** Enqueues due tracked keywords (once per period), sends stale grid points and checks again, mails the alert digests. */
  sweep: sweepRank,
  queues: rankChecksQueues,
} satisfies Capability;
