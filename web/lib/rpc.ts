// The typed API client: Hono's `hc<AppType>` over authedFetch, so response types come from the routes.
import { hc, type ClientResponse } from "hono/client";
import type { AppType } from "../../worker/app";
import { authedFetch, readApiResponse, type ApiInit } from "./api";

/** Extra options a call may pass as `init` (time-out, view-as, token) on top of RequestInit. */
export type RpcInit = Pick<ApiInit, "timeoutMs" | "viewAs" | "accessToken"> & RequestInit;

/**
 * The client. Call a route, then `unwrap` it:
 *   const { prospects } = await unwrap(api.api.prospects.$get({ query: { q } }));
 * Per-call options go in the second argument: `{ init: { timeoutMs: API_TIMEOUT_MS } as RpcInit }`.
 */
export const api = hc<AppType>(typeof location === "undefined" ? "http://localhost" : location.origin, {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => authedFetch(input, (init ?? {}) as ApiInit),
});

type ErrorBody = { error: { code: string; message: string } };
/** The success body of a route: every JSON body it can answer except the error shape. */
export type Ok<T> = Exclude<T, ErrorBody>;

/** Awaits a typed call; returns the success body, throws ApiError (status, stable code, message) otherwise. */
export async function unwrap<R extends ClientResponse<unknown>>(call: Promise<R>): Promise<Ok<BodyOf<R>>> {
  const res = await call;
  return (await readApiResponse(res as unknown as Response)) as Ok<BodyOf<R>>;
}

/** The JSON body type of each response a route can give (a union over its responses). */
type BodyOf<R> = R extends ClientResponse<infer T> ? T : never;
