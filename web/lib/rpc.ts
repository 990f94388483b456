// The typed API client: Hono's `hc<AppType>` over authedFetch, so response types come from the routes.
import { hc, type ClientResponse } from "hono/client";
import type { AppType } from "../../worker/app";
import { authedFetch, readApiResponse, type ApiInit } from "./api";

/** Extra options a call may pass as `init` (time-out, view-as, token) on top of RequestInit. */
export type RpcInit = Pick<ApiInit, "timeoutMs" | "viewAs" | "accessToken"> & RequestInit;

/**
 * The client. Call a route, then `unwrap` it:
 *   const { prospects } = await unwrap(api.api.prospects.$get({ query: { q } }));
 * Per-call options go in the second argument: `withInit({ timeoutMs: API_TIMEOUT_MS, signal })`.
 */
// Base "/": requests go to the page's own origin by relative path, as the browser would send them.
export const api = hc<AppType>("/", {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => authedFetch(input, (init ?? {}) as ApiInit),
});

type ErrorBody = { error: { code: string; message: string } };
/** The success body of a route: every JSON body it can answer except the error shape. */
export type Ok<T> = Exclude<T, ErrorBody>;

type BodyOf<R> = R extends ClientResponse<infer T, number, string> ? T : never;

/** Awaits a typed call; returns the success body, throws ApiError (status, stable code, message) otherwise. */
export async function unwrap<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<Ok<BodyOf<R>>> {
  const res = await call;
  return (await readApiResponse(res as unknown as Response)) as Ok<BodyOf<R>>;
}

/** Per-call options (time-out, abort signal, view-as, token) as the typed client's second argument. */
export function withInit(init: RpcInit): { init: RequestInit } {
  return { init };
}
