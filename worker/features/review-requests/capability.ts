// The review-requests capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { reviewRequestPublicRoutes, reviewRequestRoutes } from "./routes";
import { reviewLinkRoutes } from "./link-routes";
import { sweepReviewRequests } from "./request-jobs";

export const capability = {
  routes: new Hono<AppEnv>()
    // The public routes first: the signed-in ones' requireUser would otherwise answer them.
    .route("/api/review-requests", reviewRequestPublicRoutes)
    .route("/api/review-requests", reviewRequestRoutes)
    .route("/r", reviewLinkRoutes),
  /** Puts due review requests and reminders on the reviews queue. */
  sweep: sweepReviewRequests,
} satisfies Capability;
