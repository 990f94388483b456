// Server state of the Jobs panel: the job list (polled while anything is in progress) and the regenerate mutations.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientResponse } from "hono/client";
import type { RegenerateAllResponse, RegenerateResponse, ReportJobsResponse } from "../../../worker/features/reports/rules/jobs";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

/** How often the list is asked for again while a report is queued or generating. */
export const JOBS_POLL_MS = 3000;
const init = withInit({ timeoutMs: API_TIMEOUT_MS });

/**
 * `unwrap` infers one body type; a route that answers a success or an error body gives a union of
 * responses it cannot infer from, so these calls name their success body (errors throw ApiError).
 */
type Answer<T> = Promise<ClientResponse<T>>;

export const reportJobsQuery = queryOptions({
  queryKey: ["report-jobs"],
  queryFn: (): Promise<ReportJobsResponse> => unwrap(api.api.reports.jobs.$get(undefined, init)),
  refetchInterval: (query) => (query.state.data && query.state.data.counts.queued + query.state.data.counts.generating > 0 ? JOBS_POLL_MS : false),
  staleTime: 0,
});

export function useRegenerateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.api.reports[":id"].regenerate.$post({ param: { id: encodeURIComponent(id) } }, init) as Answer<RegenerateResponse>),
    onSettled: () => client.invalidateQueries({ queryKey: reportJobsQuery.queryKey }),
  });
}

export function useRegenerateAllTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.api.reports["regenerate-template"].$post(undefined, init) as Answer<RegenerateAllResponse>),
    onSettled: () => client.invalidateQueries({ queryKey: reportJobsQuery.queryKey }),
  });
}
