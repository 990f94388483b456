// The app's public origin for links (share links, emailed links): APP_ORIGIN. Outside development the worker refuses
// to build a link from the request's Host, which a client chooses (a poisoned reset link would point elsewhere).
import { ErrorCode, HttpError } from "./errors";

export const APP_ORIGIN_REQUIRED = "APP_ORIGIN is not set: links cannot be built. Set it in wrangler.toml [vars] to the app's public origin.";

/** Where local development serves the app (`npm start`: wrangler dev's port). */
export const LOCAL_DEV_ORIGIN = "http://localhost:8787";

/**
 * The origin for links made outside a request (a cron, a queue consumer: mail above all): APP_ORIGIN; in local
 * development without it, the local one; elsewhere null (the caller says why nothing was sent). The one place this is
 * decided: a link in a mail is never built on "" (a relative link opens nothing from a mail client).
 */
export function linkOrigin(env: { APP_ORIGIN?: string; ENVIRONMENT?: string }): string | null {
  const configured = env.APP_ORIGIN?.trim().replace(/\/+$/, "");
  if (configured) return configured;
  return env.ENVIRONMENT === "development" ? LOCAL_DEV_ORIGIN : null;
}

export function appOrigin(env: { APP_ORIGIN?: string; ENVIRONMENT?: string }, requestUrl: string): string {
  const configured = env.APP_ORIGIN?.trim().replace(/\/+$/, "");
  if (configured) return configured;
  if (env.ENVIRONMENT === "development") return new URL(requestUrl).origin;
  throw new HttpError(500, ErrorCode.notConfigured, APP_ORIGIN_REQUIRED);
}
