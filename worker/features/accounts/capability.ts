// The accounts capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { authRoutes } from "./auth-routes";
import { authFactorRoutes } from "./factor-routes";
import { accountRoutes } from "./routes";
import { adminUserRoutes } from "./admin-routes";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/auth/v1", authRoutes)
    .route("/auth/v1/factors", authFactorRoutes)
    .route("/api/account", accountRoutes)
    .route("/api/admin", adminUserRoutes),
} satisfies Capability;
