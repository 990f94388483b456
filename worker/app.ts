// The Hono app: middleware, one sub-app per resource, the error renderer, and the RPC type.
import { Hono } from "hono";
import type { AppEnv } from "./context";
import { HTTPException } from "hono/http-exception";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { HttpError, apiError, ErrorCode } from "./errors";
import { log, withRequestId } from "./log";
import { authRoutes } from "./routes/auth";
import { healthRoutes } from "./routes/health";
import { adminOutboxRoutes } from "./routes/admin-outbox";
import { adminUserRoutes } from "./routes/admin-users";
import { profileRoutes } from "./routes/profile";
import { prospectRoutes } from "./routes/prospects";
import { reportRoutes } from "./routes/reports";
import { reportJobRoutes } from "./routes/report-jobs";
import { sharedReportRoutes } from "./routes/shared-reports";

const app = new Hono<AppEnv>();

// Every API answer: a request id (Cloudflare's ray id when there is one), locked-down headers, no caching unless a route says so.
app.use(
  // headerName "": a client cannot choose the id our logs carry; the answer gets it below, on every response.
  requestId({ headerName: "", generator: (c) => c.req.header("CF-Ray") ?? crypto.randomUUID() }),
  secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
    xContentTypeOptions: true,
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    crossOriginOpenerPolicy: "same-origin",
    permissionsPolicy: { camera: [], geolocation: [], payment: [] },
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    // A route that sets one of these itself keeps its own.
    overwrite: false,
  }),
  async (c, next) => {
    // Log lines written anywhere inside the request carry its id (worker/log.ts).
    await withRequestId(c.get("requestId"), next);
    c.res.headers.set("X-Request-Id", c.get("requestId"));
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  },
);

/** Bodies are size-limited before they are read: 2 MB (and multipart framing) for the import and the logo, 100 KB elsewhere. */
export const DEFAULT_BODY_LIMIT_BYTES = 100 * 1024;
const LARGE_BODY_LIMIT_BYTES = 2 * 1024 * 1024 + 64 * 1024;
const LARGE_BODY_PATHS = new Set(["/api/prospects/import", "/api/profile/logo"]);
const defaultBodyLimit = bodyLimit({
  maxSize: DEFAULT_BODY_LIMIT_BYTES,
  onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, "The request body is too large."),
});
const largeBodyLimit = bodyLimit({
  maxSize: LARGE_BODY_LIMIT_BYTES,
  onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, "The request body is too large."),
});
app.use((c, next) => (LARGE_BODY_PATHS.has(c.req.path) ? largeBodyLimit : defaultBodyLimit)(c, next));

const routes = app
  .route("/auth/v1", authRoutes)
  .route("/api/health", healthRoutes)
  .route("/api/profile", profileRoutes)
  .route("/api/admin/outbox", adminOutboxRoutes)
  .route("/api/admin", adminUserRoutes)
  .route("/api/prospects", prospectRoutes)
  // Before reportRoutes, whose GET /:id would otherwise take /jobs.
  .route("/api/reports", reportJobRoutes)
  .route("/api/reports", reportRoutes)
  .route("/api/shared/reports", sharedReportRoutes);

app.notFound((c) => apiError(c, 404, ErrorCode.notFound, `No route for ${c.req.method} ${new URL(c.req.url).pathname}`));

app.onError((err, c) => {
  if (err instanceof HttpError) return apiError(c, err.status, err.code, err.message);
  // Hono's own refusals (malformed JSON body, body limit) are the client's doing: 4xx, never 500.
  if (err instanceof HTTPException && err.status < 500) {
    const code =
      err.status === 400 ? ErrorCode.validation : err.status === 413 ? ErrorCode.payloadTooLarge : `http_${err.status}`;
    const message = err.status === 400 ? "The request body is not valid JSON." : err.message || "Request refused.";
    return apiError(c, err.status, code, message);
  }
  log.error("unhandled error", { requestId: c.get("requestId"), method: c.req.method, path: new URL(c.req.url).pathname }, err);
  return apiError(c, 500, ErrorCode.internal, "Something went wrong on our side. Please try again.");
});

export type AppType = typeof routes;
export default app;
