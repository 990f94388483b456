// The gbp-guard capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the
// cron and its queue. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { guardRoutes } from "./routes";
import { sweepGuard } from "./check";
import { gbpGuardQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/gbp/guard", guardRoutes),
  /** Claims each watched location's check once a night and sends lost checks again. */
  sweep: sweepGuard,
  queues: gbpGuardQueues,
} satisfies Capability;
