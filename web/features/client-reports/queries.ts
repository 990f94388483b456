// Server state of /api/client-reports (issue 30): the admin's list of clients with their last report, a client's own
// reports, and the writes (settings, build now / rebuild, send now). Typed by the contract in worker/features/client-reports/rules/client-report.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  ClientReportBuildRequest,
  ClientReportListResponse,
  ClientReportSettings,
  ClientReportSettingsUpdate,
  ClientReportStatus,
  ClientReportSummary,
} from "../../../worker/features/client-reports/rules/client-report";
import { API_TIMEOUT_MS, apiFetch } from "../../lib/api";

const BASE = "/api/client-reports";
const timeout = { timeoutMs: API_TIMEOUT_MS };

/** How often the list is read again while a report is queued or building. */
export const CLIENT_REPORT_POLL_MS = 4_000;

export const isReportPending = (status: ClientReportStatus | undefined | null) => status === "queued" || status === "building";

/** True while any report the answer shows is still on its way: the list polls until none is. */
export function hasPendingReport(data: ClientReportListResponse | undefined): boolean {
  if (!data) return false;
  return data.role === "admin" ? data.clients.some((c) => isReportPending(c.lastReport?.status)) : data.reports.some((r) => isReportPending(r.status));
}

export const clientReportsKey = ["client-reports"] as const;

export const clientReportsQuery = () =>
  queryOptions({
    queryKey: clientReportsKey,
    queryFn: ({ signal }) => apiFetch<ClientReportListResponse>(BASE, { ...timeout, signal }),
    refetchInterval: (query) => (hasPendingReport(query.state.data) ? CLIENT_REPORT_POLL_MS : false),
  });

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: clientReportsKey });
}

/** PUT /api/client-reports/settings/:userId: on/off and the recipients. */
export function useSaveClientReportSettings() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ userId, ...json }: ClientReportSettingsUpdate & { userId: string }) =>
      apiFetch<{ settings: ClientReportSettings }>(`${BASE}/settings/${encodeURIComponent(userId)}`, { method: "PUT", json, ...timeout }),
    onSuccess: done,
  });
}

/** The list with `report` as its client's last report: what the server now holds, shown before the list is read again. */
export function withLastReport(data: ClientReportListResponse | undefined, report: ClientReportSummary): ClientReportListResponse | undefined {
  if (!data) return data;
  if (data.role === "admin") return { ...data, clients: data.clients.map((c) => (c.userId === report.userId ? { ...c, lastReport: report } : c)) };
  return { ...data, reports: data.reports.some((r) => r.id === report.id) ? data.reports.map((r) => (r.id === report.id ? report : r)) : [report, ...data.reports] };
}

/**
 * POST /api/client-reports `{userId, month?}`: build now, or rebuild a month. The answered (queued) report goes into the
 * list at once, so the row says "Building" and the list polls from now until the report is ready.
 */
export function useBuildClientReport() {
  const client = useQueryClient();
  const done = useInvalidate();
  return useMutation({
    mutationFn: (json: ClientReportBuildRequest) => apiFetch<{ report: ClientReportSummary }>(BASE, { method: "POST", json, ...timeout }),
    onSuccess: (answer) => {
      client.setQueryData<ClientReportListResponse>(clientReportsKey, (data) => withLastReport(data, answer.report));
      return done();
    },
  });
}

/** POST /api/client-reports/:id/send: mail the built report now. */
export function useSendClientReport() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ report?: ClientReportSummary }>(`${BASE}/${encodeURIComponent(id)}/send`, { method: "POST", ...timeout }),
    onSuccess: done,
  });
}
