// The rank capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { rankRoutes, sharedGridRoutes } from "./routes";
import { sweepRank } from "./tracker";
import { rankChecksConsumer, rankChecksDeadLetters } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/rank", rankRoutes)
    .route("/api/shared/grids", sharedGridRoutes),
  /** Enqueues due tracked keywords (once per period), sends stale grid points and checks again, mails the alert digests. */
  sweep: sweepRank,
  /** Its queues (wrangler.toml) and their dead-letter queues. */
  queues: { "rank-checks": rankChecksConsumer, "rank-checks-dlq": rankChecksDeadLetters },
} satisfies Capability;
