// The signed-in user's own profile (admin status comes from it): never the viewed user's.
import { queryOptions } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "../lib/api";
import { api, unwrap, withInit } from "../lib/rpc";

export const profileKeys = {
  own: (userId: string) => ["profile", "own", userId] as const,
};

/** GET /api/profile with the caller's token, no view-as, the 10-second limit; not retried (spec §4: failure = not admin). */
export function ownProfileQuery(userId: string, accessToken: () => string | null) {
  return queryOptions({
    queryKey: profileKeys.own(userId),
    queryFn: ({ signal }) =>
      unwrap(api.api.profile.$get({}, withInit({ accessToken: accessToken(), viewAs: false, timeoutMs: API_TIMEOUT_MS, signal }))),
    retry: false,
  });
}
