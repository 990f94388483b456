// Shared-report views of one report (issue 10): GET /api/reports/:id/views for the admin timeline.
import { queryOptions } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

export const reportViewsQuery = (reportId: string) =>
  queryOptions({
    queryKey: ["reports", reportId, "views"],
    queryFn: () =>
      unwrap(api.api.reports[":id"].views.$get({ param: { id: reportId } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit })),
    staleTime: 30_000,
  });
