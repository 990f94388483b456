// The reports capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { reportJobRoutes } from "./jobs-routes";
import { reportRoutes } from "./routes";
import { sharedReportRoutes } from "./shared-routes";
import { sharedReportEventRoutes } from "./shared-events-routes";
import { reportViewRoutes } from "./views-routes";
import { sharedReportPageRoutes } from "./shared-page-routes";
import { sweepStaleReports } from "./generate";
import { forgetBrandedPages, forgetReportVersion, showNewFindings } from "./reactions";
import { reportJobsQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    // Before reportRoutes, whose GET /:id would otherwise take /jobs.
    .route("/api/reports", reportJobRoutes)
    .route("/api/reports", reportRoutes)
    .route("/api/shared/reports", sharedReportRoutes)
    .route("/api/shared/reports", sharedReportEventRoutes)
    .route("/api/reports", reportViewRoutes)
    .route("/shared/reports", sharedReportPageRoutes),
  /** Re-queues reports whose generation went stale. */
  sweep: sweepStaleReports,
  on: {
    "prospect.findings-changed": showNewFindings,
    "prospect.report-changed": forgetReportVersion,
    "brand.changed": forgetBrandedPages,
  },
  queues: reportJobsQueues,
} satisfies Capability;
