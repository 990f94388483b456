// A run an agency starts for one of its clients from the clients view (issue 41's bulk actions): the capability says
// what the run would cost that client, or why it cannot run for them, and starts it when asked. The command center
// sums the estimates of the selection, checks them against each client's allowance and the operator's ceiling (one
// 402 before anything starts), then starts each run and reports each client's outcome.
import type { Db } from "./db/client";
import type { Env } from "./env";
import type { AppEnv } from "./context";

/** The client a run is for, as a route's subject would be when the client acts themselves. */
export type ClientSubject = AppEnv["Variables"]["subject"];

/** Why a run cannot start for a client (not connected, no grid yet, a plan limit, ...), in the client screen's words. */
export type ClientRunRefusal = { ok: false; code: string; message: string };

export type ClientRunPlan = { ok: true; micro: number; start: () => Promise<{ ok: true } | ClientRunRefusal> } | ClientRunRefusal;

/** What a run may need of the request that starts it: the app's origin (a mailed link) and the admin acting. */
export type ClientRunContext = { origin: string; actorId: string };

/** Plans one client's run: reads what it needs, calls nothing paid, writes nothing. */
export type ClientRunner = (env: Env, db: Db, client: ClientSubject, ctx: ClientRunContext) => Promise<ClientRunPlan>;
