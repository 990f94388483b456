// The ai-visibility capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { sharedAiAnswerRoutes, aiVisibilityRoutes } from "./routes";
import { sweepAiVisibility } from "./tracking";
import { aiVisibilityQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/shared/reports", sharedAiAnswerRoutes)
    .route("/api/ai-visibility", aiVisibilityRoutes),
  /** Re-asks tracked AI Visibility questions weekly and sends its lost messages again. */
  sweep: sweepAiVisibility,
  queues: aiVisibilityQueues,
} satisfies Capability;
