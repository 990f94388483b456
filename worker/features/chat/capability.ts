// The chat capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { chatRoutes } from "./routes";
import { sharedChatRoutes } from "./shared-routes";
import { ttsRoutes } from "./tts-routes";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/chat", chatRoutes)
    .route("/api/shared/chat", sharedChatRoutes)
    .route("/api/tts", ttsRoutes),
} satisfies Capability;
