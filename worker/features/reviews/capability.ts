// The reviews capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { reviewRoutes } from "./routes";
import { sweepReviews } from "./inbox";
import { reviewsQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/reviews", reviewRoutes),
  /** Reads connected businesses' Google reviews every 6 hours (reviews queue), queues due auto-published replies and takes back stale publish claims. */
  sweep: sweepReviews,
  queues: reviewsQueues,
} satisfies Capability;
