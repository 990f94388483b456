// What a capability hands the registry (worker/registry.ts): its routes, its queues, its part of the cron, its reactions
// to events.
import type { Hono } from "hono";
import type { AppEnv } from "./context";
import type { Env } from "./env";
import type { Reactions } from "./events";
import type { QueueConsumer } from "./jobs/consumer";

export type Capability = {
  /** Every route of the capability in one sub-app, at their full paths: the app mounts it at "/" (its
   * schema, any here, is read back from the registry for AppType). */
  routes?: Hono<AppEnv, any, "/">;
  /** Its queues' consumers by queue name (wrangler.toml), dead-letter queues included (worker/platform/jobs). */
  queues?: Record<string, QueueConsumer>;
  /** Its part of the cron (wrangler.toml, every 5 minutes): re-send what was lost, start what is due. */
  sweep?: (env: Env) => Promise<unknown>;
  /** What it does when another capability announces an event (worker/platform/events.ts). */
  on?: Reactions;
};
