// The command-center capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of
// the cron and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { attentionRoutes } from "./routes";
import { attentionReactions, sweepAttention } from "./attention";
import { clientRoutes, viewRoutes } from "./client-routes";
import { clientReactions, fillClientRows } from "./clients";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/agency/attention", attentionRoutes)
    .route("/api/agency/clients", clientRoutes)
    .route("/api/agency/views", viewRoutes),
  /**
   * Finds low reviews waiting over 24 hours, connections to renew and failed posts across every client; closes what is
   * gone; fills the clients view's rows no event has touched yet.
   */
  sweep: async (env) => ({ ...(await sweepAttention(env)), ...(await fillClientRows(env)) }),
  on: { ...attentionReactions, ...clientReactions },
} satisfies Capability;
