// How a view beacon answers (the shared report's and the monthly client report's): never an error status, only 202
// (counted) or 204 (not counted), with the reason in X-Beacon; and its body read as JSON whatever its content type.
import type { Context, Handler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../../platform/context";
import { MAX_BEACON_BYTES } from "./rules/events";
import { log } from "../../platform/log";

export type BeaconOutcome =
  | "recorded"
  | "duplicate"
  | "invalid"
  | "unknown_report"
  | "not_ready"
  | "previewer"
  | "staff"
  | "rate_limited"
  | "unsigned_visit"
  | "error";

export function answer(c: Context, outcome: BeaconOutcome) {
  return c.body(null, outcome === "recorded" ? 202 : 204, { "X-Beacon": outcome, "Cache-Control": "no-store" });
}

/** The body as JSON (sendBeacon posts text/plain, so no JSON content type is required); bodyLimit caps its size. */
export async function readBeacon(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A beacon route's handlers: the body capped at MAX_BEACON_BYTES (a chunked body stops being read past it; the page
 * still gets its quiet 204), then `handle`, whose failure is logged as `what` and answered 204 "error": a beacon never
 * surfaces an error to the page.
 */
export function beaconHandlers(what: string, handle: (c: Context<AppEnv>) => Promise<BeaconOutcome>): [Handler<AppEnv>, Handler<AppEnv>] {
  return [
    bodyLimit({ maxSize: MAX_BEACON_BYTES, onError: (c) => answer(c, "invalid") }),
    async (c) => {
      let outcome: BeaconOutcome;
      try {
        outcome = await handle(c);
      } catch (error) {
        log.error(`${what} failed`, {}, error);
        outcome = "error";
      }
      return answer(c, outcome);
    },
  ];
}
