// How a view beacon answers (the shared report's and the monthly client report's): never an error status, only 202
// (counted) or 204 (not counted), with the reason in X-Beacon; and its body read as JSON whatever its content type.
import type { Context } from "hono";

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
