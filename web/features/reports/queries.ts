// Reports: the admin report and the shared report (polled until ready), live statuses, generate all, create.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { PENDING_STATUSES, STATUS_POLL_MS, asReportStatus } from "../../../worker/features/reports/rules/status";
import type { ReportStatusItem, SharedReportResponse } from "../../../worker/features/reports/rules/view";
import { API_TIMEOUT_MS, ApiError } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";
import { prospectKeys } from "../prospects";

/** How often a report that is not ready yet is asked for again (admin view). */
export const ADMIN_REPORT_POLL_MS = 2000;
/** The shared page asks less often: it is read by prospects, not watched by the admin. */
export const SHARED_REPORT_POLL_MS = 5000;
const STATUS_IDS_PER_REQUEST = 100;

export const reportKeys = {
  all: ["reports"] as const,
  admin: (id: string) => ["reports", "admin", id] as const,
  shared: (id: string) => ["reports", "shared", id] as const,
  statuses: (ids: readonly string[]) => ["reports", "statuses", ids] as const,
  newest: ["reports", "newest"] as const,
};

/** Polls every `ms` until the report is ready; a failed poll keeps what is shown and tries again (twice as late). */
function untilReady(ms: number) {
  return (query: { state: { data?: { report: { status: string } }; error: unknown } }) => {
    const { data, error } = query.state;
    if (data?.report.status === "ready") return false;
    return error ? ms * 2 : ms;
  };
}

export function adminReportQuery(id: string) {
  return queryOptions({
    queryKey: reportKeys.admin(id),
    queryFn: ({ signal }) =>
      unwrap(api.api.reports[":id"].$get({ param: { id: encodeURIComponent(id) } }, withInit({ timeoutMs: API_TIMEOUT_MS, signal }))),
    refetchInterval: untilReady(ADMIN_REPORT_POLL_MS),
  });
}

export function sharedReportQuery(id: string) {
  return queryOptions({
    queryKey: reportKeys.shared(id),
    // The route writes its cached JSON text itself (c.body), so its type is named here.
    queryFn: async ({ signal }) =>
      (await unwrap(
        api.api.shared.reports[":id"].$get(
          { param: { id: encodeURIComponent(id) } },
          withInit({ accessToken: null, viewAs: false, timeoutMs: 15_000, signal }),
        ),
      )) as SharedReportResponse,
    // A 404 means the report is gone: stop asking. Anything else is retried by the next poll.
    refetchInterval: (query) =>
      query.state.error instanceof ApiError && query.state.error.status === 404 ? false : untilReady(SHARED_REPORT_POLL_MS)(query),
  });
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

type LiveStatus = Pick<ReportStatusItem, "id" | "status" | "content_generated">;

/**
 * Live statuses for the listed reports that are queued or generating, polled every STATUS_POLL_MS until
 * they settle. Starts from the statuses the list gave; returns the latest known status per report id.
 */
export function useLiveReportStatuses(
  reports: readonly { id: string; status: string; content_generated: boolean }[],
): ReadonlyMap<string, LiveStatus> {
  const pendingIds = reports.filter((r) => PENDING_STATUSES.includes(asReportStatus(r.status))).map((r) => r.id);
  const query = useQuery({
    queryKey: reportKeys.statuses(pendingIds),
    enabled: pendingIds.length > 0,
    initialData: () =>
      new Map(
        reports
          .filter((r) => pendingIds.includes(r.id))
          .map((r) => [r.id, { id: r.id, status: asReportStatus(r.status), content_generated: r.content_generated }]),
      ) as Map<string, LiveStatus>,
    initialDataUpdatedAt: () => Date.now(),
    staleTime: STATUS_POLL_MS,
    queryFn: async ({ signal }) => {
      const statuses = new Map<string, LiveStatus>();
      for (let i = 0; i < pendingIds.length; i += STATUS_IDS_PER_REQUEST) {
        const chunk = pendingIds.slice(i, i + STATUS_IDS_PER_REQUEST);
        const res = await unwrap(
          api.api.reports.status.$get({ query: { ids: chunk.join(",") } }, withInit({ timeoutMs: API_TIMEOUT_MS, signal, viewAs: false })),
        );
        for (const s of res.statuses) statuses.set(s.id, s);
      }
      return statuses;
    },
    refetchInterval: (q) => {
      const data = q.state.data;
      if (q.state.error instanceof ApiError && q.state.error.status === 403) return false;
      return data && [...data.values()].some((s) => PENDING_STATUSES.includes(s.status)) ? STATUS_POLL_MS : false;
    },
    // A viewer without the admin role gets 403: not worth asking again.
    retry: false,
  });
  return query.data ?? EMPTY;
}
const EMPTY: ReadonlyMap<string, LiveStatus> = new Map();

/**
 * After reports were created or deleted: the prospects lists and the sidebar's newest-report lookup are read
 * again, so AI Chat follows the first report at once (it is otherwise asked once per sign-in).
 */
export function refreshAfterReportsChange(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: prospectKeys.all }),
    client.invalidateQueries({ queryKey: reportKeys.newest }),
  ]);
}

/** "Generate all reports": queues every report not generated yet, then the list is read again. */
export function useGenerateAllReports() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.api.reports["generate-all"].$post({}, withInit({ timeoutMs: API_TIMEOUT_MS }))),
    onSuccess: () => client.invalidateQueries({ queryKey: prospectKeys.all }),
  });
}

/** Create New Report: the prospect and its report (queued unless Save Only). */
export function useCreateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Parameters<typeof api.api.reports.$post>[0]["json"]) =>
      unwrap(api.api.reports.$post({ json: body }, withInit({ timeoutMs: API_TIMEOUT_MS }))),
    onSuccess: () => refreshAfterReportsChange(client),
  });
}

/** GET /api/reports?limit=1 with the 10-second limit: the newest report, for the sidebar's AI Chat entry. */
export function newestReportQuery(accessToken: string | null | undefined) {
  return queryOptions({
    queryKey: reportKeys.newest,
    queryFn: ({ signal }) =>
      unwrap(
        api.api.reports.$get({ query: { limit: "1" } }, withInit({ accessToken, viewAs: false, timeoutMs: API_TIMEOUT_MS, signal })),
      ),
    retry: false,
    staleTime: Infinity,
  });
}
