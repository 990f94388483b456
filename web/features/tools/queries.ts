// Server state of the search tools: the Google results search and the local-services samples.
import { queryOptions } from "@tanstack/react-query";
import type { GoogleResultsQuery, LocalServicesQuery } from "../../../worker/features/tools/rules/search-tools";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

/** The server gives the provider 15 s (spec §9); the browser waits a little longer for the answer. */
const SEARCH_CLIENT_TIMEOUT_MS = 20_000;
/** The server keeps a search 24 hours; within a visit the same search is not asked again. */
const DAY_MS = 24 * 60 * 60 * 1000;

export function googleResultsQuery(search: GoogleResultsQuery) {
  return queryOptions({
    queryKey: ["tools", "google-results", search.keyword, search.location],
    queryFn: () =>
      unwrap(
        api.api.tools["google-results"].$get(
          { query: search },
          { init: { timeoutMs: SEARCH_CLIENT_TIMEOUT_MS } as RpcInit },
        ),
      ),
    staleTime: DAY_MS,
    retry: false,
  });
}

export function localServicesQuery(search: LocalServicesQuery) {
  return queryOptions({
    queryKey: ["tools", "local-services", search.businessType, search.location],
    queryFn: () => unwrap(api.api.tools["local-services"].$get({ query: search })),
    staleTime: Infinity,
  });
}
