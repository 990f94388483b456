// The command-center capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of
// the cron and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { attentionRoutes } from "./routes";
import { attentionReactions, sweepAttention } from "./attention";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/agency/attention", attentionRoutes),
  /** Finds low reviews waiting over 24 hours, connections to renew and failed posts across every client; closes what is gone. */
  sweep: sweepAttention,
  on: attentionReactions,
} satisfies Capability;
