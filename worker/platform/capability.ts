// What a capability hands the registry (worker/registry.ts): its routes, its part of the cron, its reactions to events.
import type { Hono } from "hono";
import type { AppEnv } from "./context";
import type { Env } from "./env";
import type { Reactions } from "./events";

export type Capability = {
  /** Every route of the capability in one sub-app, at their full paths: the app mounts it at "/" (its
   * schema, any here, is read back from the registry for AppType). */
  routes?: Hono<AppEnv, any, "/">;
  /** Its part of the cron (wrangler.toml, every 5 minutes): re-send what was lost, start what is due. */
  sweep?: (env: Env) => Promise<unknown>;
  /** What it does when another capability announces an event (worker/platform/events.ts). */
  on?: Reactions;
};
