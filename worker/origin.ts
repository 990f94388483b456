// The app's public origin for links (share links, emailed links): APP_ORIGIN. Outside development the worker refuses
// to build a link from the request's Host, which a client chooses (a poisoned reset link would point elsewhere).
import { ErrorCode, HttpError } from "./errors";

export const APP_ORIGIN_REQUIRED = "APP_ORIGIN is not set: links cannot be built. Set it in wrangler.toml [vars] to the app's public origin.";

export function appOrigin(env: { APP_ORIGIN?: string; ENVIRONMENT?: string }, requestUrl: string): string {
  const configured = env.APP_ORIGIN?.trim().replace(/\/+$/, "");
  if (configured) return configured;
  if (env.ENVIRONMENT === "development") return new URL(requestUrl).origin;
  throw new HttpError(500, ErrorCode.notConfigured, APP_ORIGIN_REQUIRED);
}
