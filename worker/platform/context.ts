// The Hono environment every route shares: bindings plus what middleware puts on the context.
import type { AuthContext, ProfileRow } from "./auth/users";
import type { Env } from "./env";

/** The business of a request (worker/platform/http/business-scope.ts): the subject's own (with its profile), or a
 * prospect's (an admin's). */
export type BusinessScope = { kind: "own"; userId: string; profile: ProfileRow | null } | { kind: "prospect"; prospectId: string };

export interface Caller extends AuthContext {
  sessionId: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** The signed-in person making the request. */
    caller: Caller;
    /**
     * Whose data the request reads: the caller, or (admins only, read-only) the user named by
     * the X-View-As header.
     */
    subject: { id: string; email: string; isAdmin: boolean; companyName: string | null; profile: ProfileRow | null };
    viewingAs: boolean;
    /** The business a scoped route works on (set by businessScope: own, or a prospect for an admin). */
    business: BusinessScope;
  };
};

/** Runs work after the response (the request's waitUntil), or in the background where there is no context. */
export function waitUntil(c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } }, promise: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    // No execution context (a plain app.request in a test): finish in the background.
    void promise.catch(() => undefined);
  }
}
