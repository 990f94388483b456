// The Hono app: middleware, one sub-app per resource, the error renderer, and the RPC type.
import { Hono } from "hono";
import type { AppEnv } from "./context";
import { HTTPException } from "hono/http-exception";
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

export const API_SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), geolocation=(), payment=()",
};

const app = new Hono<AppEnv>();

app.use(async (c, next) => {
  const requestId = c.req.header("CF-Ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);
  await withRequestId(requestId, next);
  for (const [k, v] of Object.entries(API_SECURITY_HEADERS)) {
    if (!c.res.headers.has(k)) c.res.headers.set(k, v);
  }
  c.res.headers.set("X-Request-Id", requestId);
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
});

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
