// The Hono app: middleware, one sub-app per resource, the error renderer, and the RPC type.
import { Hono } from "hono";
import type { HonoBase } from "hono/hono-base";
import type { AppEnv } from "./platform/context";
import { HTTPException } from "hono/http-exception";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { HttpError, apiError, ErrorCode } from "./platform/errors";
import { MALFORMED_JSON_MESSAGE } from "./platform/validate";
import { authError } from "./platform/auth/gotrue";
import { LOGO_TOO_LARGE_MESSAGE } from "./features/profile/rules/profile";
import { log, withRequestId } from "./platform/log";
import { capabilities } from "./registry";
import { isPagePath, servePage } from "./features/pages/pages";
import { WIDGET_LOGO_TOO_LARGE_MESSAGE } from "./features/widgets/rules/widgets";
import { BRAND_LOGO_MAX_BYTES, BRAND_LOGO_TOO_LARGE_MESSAGE } from "./platform/brand/rules/brand";

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
    // Two years, subdomains too: browsers keep to https (ignored over plain http, as on localhost).
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    // A route that sets one of these itself keeps its own.
    overwrite: false,
  }),
  async (c, next) => {
    // Log lines written anywhere inside the request carry its id (worker/platform/log.ts).
    await withRequestId(c.get("requestId"), next);
    c.res.headers.set("X-Request-Id", c.get("requestId"));
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  },
);

/**
 * Bodies are size-limited before they are read: 2 MB (and multipart framing) for the import and the logo,
 * 100 KB elsewhere. Routes with a limit of their own (chat messages, the Stripe webhook, text to speech)
 * apply it themselves, with their own message; the view beacon answers its quiet 204.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 100 * 1024;
const limit = (maxSize: number, message = "The request body is too large.") =>
  bodyLimit({ maxSize, onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, message) });
const defaultBodyLimit = limit(DEFAULT_BODY_LIMIT_BYTES);
const importBodyLimit = limit(2 * 1024 * 1024 + 64 * 1024);
const logoBodyLimit = limit(2 * 1024 * 1024 + 64 * 1024, LOGO_TOO_LARGE_MESSAGE);
const widgetLogoBodyLimit = limit(200 * 1024, WIDGET_LOGO_TOO_LARGE_MESSAGE);
const WIDGET_LOGO = /^\/api\/widgets\/[^/]+\/logo$/;
const brandLogoBodyLimit = limit(BRAND_LOGO_MAX_BYTES + 64 * 1024, BRAND_LOGO_TOO_LARGE_MESSAGE);
// GoTrue's clients read GoTrue's error shape, a too-large body included.
const authBodyLimit = bodyLimit({
  maxSize: DEFAULT_BODY_LIMIT_BYTES,
  onError: (c) => authError(c, 413, ErrorCode.payloadTooLarge, "The request body is too large."),
});
// The view beacon's own limit answers its quiet 204, never a 413 (docs/reports.md: beacons answer only 202 or 204).
const OWN_BODY_LIMIT = /^\/api\/((shared\/)?chat\/[^/]+\/messages|billing\/webhook|tts|shared\/(client-)?reports\/[^/]+\/events)$/;
app.use((c, next) => {
  const path = c.req.path;
  if (path === "/api/prospects/import") return importBodyLimit(c, next);
  if (path === "/api/profile/logo") return logoBodyLimit(c, next);
  if (WIDGET_LOGO.test(path)) return widgetLogoBodyLimit(c, next);
  if (path === "/api/brand/logo") return brandLogoBodyLimit(c, next);
  if (path.startsWith("/auth/v1/")) return authBodyLimit(c, next);
  if (OWN_BODY_LIMIT.test(path)) return next();
  return defaultBodyLimit(c, next);
});

/**
 * Every JSON route answers 415 to a body that is not JSON (form-encoded, text, no type), before any handler reads it:
 * a form post to PUT /api/profile once cleared the whole profile. Routes that take other bodies are listed.
 */
const NOT_JSON_BODIES = /^\/api\/(profile\/logo|brand\/logo|widgets\/[^/]+\/logo|billing\/webhook|shared\/(client-)?reports\/[^/]+\/events|review-requests\/(unsubscribe|sms\/status|sms\/incoming))$/;
const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;
export const NOT_JSON_MESSAGE = "The request body must be JSON (Content-Type: application/json).";
app.use(async (c, next) => {
  const method = c.req.method;
  if (method !== "POST" && method !== "PUT" && method !== "PATCH") return next();
  const path = c.req.path;
  if (!(path.startsWith("/api/") || path.startsWith("/auth/v1/")) || NOT_JSON_BODIES.test(path)) return next();
  const hasBody = Number(c.req.header("Content-Length") ?? 0) > 0 || c.req.header("Transfer-Encoding") !== undefined;
  if (!hasBody || JSON_TYPE.test(c.req.header("Content-Type") ?? "")) return next();
  if (path.startsWith("/auth/v1/")) return authError(c, 415, "unsupported_media_type", NOT_JSON_MESSAGE);
  return apiError(c, 415, "unsupported_media_type", NOT_JSON_MESSAGE);
});

// Every capability's routes, in the registry's order. Only their type leaves this file: AppType, which the web client
// (hc<AppType>) reads, the union of the capabilities' own route types.
for (const capability of capabilities) app.route("/", capability.routes);
// HonoBase, not Hono: a chained sub-app is a HonoBase, and hc<AppType> reads its route types from the same class.
type RoutesOf<C> = C extends { routes: HonoBase<AppEnv, infer S, "/"> } ? S : never;

app.notFound((c) => {
  const { pathname } = new URL(c.req.url);
  // Pages reach the worker first (wrangler.toml run_worker_first) so their CSP can follow configuration.
  if (isPagePath(pathname) && (c.req.method === "GET" || c.req.method === "HEAD")) return servePage(c.req.raw, c.env);
  // GoTrue's clients read GoTrue's error shape, an unknown /auth/v1 path included.
  if (pathname.startsWith("/auth/")) return authError(c, 404, "not_found", `No route for ${c.req.method} ${pathname}`);
  return apiError(c, 404, ErrorCode.notFound, `No route for ${c.req.method} ${pathname}`);
});

app.onError((err, c) => {
  if (err instanceof HttpError) return apiError(c, err.status, err.code, err.message);
  // Hono's own refusals (malformed JSON body, body limit) are the client's doing: 4xx, never 500.
  if (err instanceof HTTPException && err.status < 500) {
    const code =
      err.status === 400 ? ErrorCode.validation : err.status === 413 ? ErrorCode.payloadTooLarge : `http_${err.status}`;
    const message = err.status === 400 ? MALFORMED_JSON_MESSAGE : err.message || "Request refused.";
    return apiError(c, err.status, code, message);
  }
  log.error("unhandled error", { requestId: c.get("requestId"), method: c.req.method, path: new URL(c.req.url).pathname }, err);
  return apiError(c, 500, ErrorCode.internal, "Something went wrong on our side. Please try again.");
});

export type AppType = HonoBase<AppEnv, RoutesOf<(typeof capabilities)[number]>, "/">;
export default app;
