// The signed-in user's own profile (GET /api/profile without view-as): what the auth context reads for the admin state and
// the banners. Plumbing, beside auth.ts, so that auth does not import a feature (the profile feature's queries use auth).
import { queryOptions } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "./api";
import { api, unwrap, withInit } from "./rpc";

export const profileKeys = {
  own: (userId: string, aal: string | null = null) => ["profile", "own", userId, aal] as const,
};

/**
 * GET /api/profile with the caller's token, no view-as, the 10-second limit; not retried (spec §4: failure = not admin).
 * Keyed by the session's assurance level too: after a two-factor code the admin state is read again.
 */
export function ownProfileQuery(userId: string, accessToken: () => string | null, aal: string | null = null) {
  return queryOptions({
    queryKey: profileKeys.own(userId, aal),
    queryFn: ({ signal }) =>
      unwrap(api.api.profile.$get({}, withInit({ accessToken: accessToken(), viewAs: false, timeoutMs: API_TIMEOUT_MS, signal }))),
    retry: false,
  });
}
