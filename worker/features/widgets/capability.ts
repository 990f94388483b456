// The widgets capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { widgetRoutes } from "./routes";
import { widgetApiRoutes, widgetPageRoutes } from "./public-routes";
import { mailLeadsOfReport, sweepWidgetLeads } from "./leads";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/widgets", widgetRoutes)
    .route("/api/widget", widgetApiRoutes)
    .route("/widget", widgetPageRoutes),
  /** Starts widget leads that waited for their owner's allowance (and mails a ready report's visitor the consumer missed). */
  sweep: sweepWidgetLeads,
  // A lead's visitor gets the shared link once the report is ready.
  on: { "report.ready": ({ env, reportId }) => mailLeadsOfReport(env, reportId) },
} satisfies Capability;
