// The content capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { postRoutes } from "./posts-routes";
import { contentRoutes } from "./routes";
import { calendarRoutes } from "./calendar-routes";
import { scheduleRoutes } from "./schedule-routes";
import { sweepDuePosts } from "./gbp-publish";
import { gbpPostsQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/posts", postRoutes)
    .route("/api/content", contentRoutes)
    .route("/api/calendar", calendarRoutes)
    .route("/api/schedule", scheduleRoutes),
  /** Puts due Google Business Profile posts on gbp-posts (or reminds their owners). */
  sweep: sweepDuePosts,
  queues: gbpPostsQueues,
} satisfies Capability;
