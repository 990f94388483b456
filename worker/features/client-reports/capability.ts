// The client-reports capability as the registry (worker/registry.ts) takes it: its routes at their paths, its part of the cron
// and its reactions to events. What other capabilities may use of it is its index.ts.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Capability } from "../../platform/capability";
import { clientReportRoutes } from "./routes";
import { sharedClientReportEventRoutes, sharedClientReportPageRoutes } from "./shared-routes";
import { clientReportRecipientRoutes } from "./recipient-routes";
import { sweepClientReports } from "./run";
import { clientReportsQueues } from "./queue";

export const capability = {
  routes: new Hono<AppEnv>()
    .route("/api/client-reports", clientReportRoutes)
    .route("/api/shared/client-reports", sharedClientReportEventRoutes)
    .route("/shared/client-reports/recipients", clientReportRecipientRoutes)
    .route("/shared/client-reports", sharedClientReportPageRoutes),
  /** On the 1st in each switched-on client's zone, creates and queues last month's client report once (and sends lost ones again). */
  sweep: sweepClientReports,
  queues: clientReportsQueues,
} satisfies Capability;
