// The pipeline capability as the registry (worker/registry.ts) takes it: its routes at their paths and its reactions
// to the lead loop's events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { convertRoutes, pipelineRoutes } from "./routes";
import { pipelineReactions } from "./pipeline";

export const capability = {
  routes: new Hono<AppEnv>().route("/api/pipeline", pipelineRoutes).route("/api/prospects", convertRoutes),
  on: pipelineReactions,
} satisfies Capability;
