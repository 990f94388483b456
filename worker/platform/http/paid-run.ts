// The plumbing of a paid run's route (issue 40: thin routes): `?estimate=1` answers the capability's estimate and runs
// nothing; a run its estimate does not fit is refused with 402 before any call; a refusal of the meter (or a
// capability's refusal in its words) is answered from that refusal, its status, code and message.
import type { Context } from "hono";
import type { TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import type { AppEnv } from "../context";
import { apiError, type FieldErrors } from "../errors";
import type { Refusal } from "../metering/meter";
import { validate } from "../validate";

/** `?estimate=1` on a paid run's POST (nothing else is accepted in its query). */
export const EstimateQuery = z.object({ estimate: z.literal("1").optional() });
export const estimateQuery = validate("query", EstimateQuery);

/** What every capability's estimate says: whether the run fits what is left (allowance, pool, daily ceiling). */
export type PaidEstimate = { allowed: boolean };

/** The meter's refusal (or a capability's allowance refusal) as the API answers it: 402 with its own code and message. */
export function paymentRequired(c: Context<AppEnv>, refusal: Pick<Refusal, "code" | "message">) {
  return apiError(c, 402, refusal.code, refusal.message);
}

/** A refusal that carries its status (resolving a business: 400, 402 from the meter, 404, 422, 503; a plan's 429). */
export function refusalResponse<S extends ContentfulStatusCode>(c: Context<AppEnv>, refusal: { status: S; code: string; message: string; fields?: FieldErrors }) {
  return apiError(c, refusal.status, refusal.code, refusal.message, refusal.fields);
}

/** Whether the request asks only for the estimate (after `estimateQuery` has validated it). */
export function wantsEstimate(c: Context<AppEnv>): boolean {
  return c.req.query("estimate") === "1";
}

/**
 * The estimate step of a paid run, after the capability's estimate: `?estimate=1` answers the estimate itself; else the
 * capability's own checks (`before`, e.g. a missing search key or a plan limit) and then the 402 when the estimate does
 * not fit, in the capability's words (`overAllowance`). Null: the run may start.
 */
export async function estimateOrRefusal<E extends PaidEstimate, R = never>(
  c: Context<AppEnv>,
  estimate: E,
  overAllowance: (estimate: E) => Pick<Refusal, "code" | "message">,
  before?: () => Promise<R | null>,
): Promise<(Response & TypedResponse<JSONParsed<E>, ContentfulStatusCode, "json">) | ReturnType<typeof apiError> | R | null> {
  if (wantsEstimate(c)) return c.json(estimate);
  const earlier = before ? await before() : null;
  if (earlier) return earlier;
  return estimate.allowed ? null : paymentRequired(c, overAllowance(estimate));
}
