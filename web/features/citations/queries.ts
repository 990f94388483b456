// The Citation Tracker (issue 27): the estimate, a scan (polled while its sources answer), a business's history, run,
// CSV. Shapes: worker/features/citations/rules/citations.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CitationScanView } from "../../../worker/features/citations/rules/citations";
import { API_TIMEOUT_MS, ApiError } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";
import { businessParam, type RankTarget } from "../rank";

export const CITATION_POLL_MS = 2000;
const timeout = { timeoutMs: API_TIMEOUT_MS };

export const citationKeys = {
  scan: (id: string) => ["citations", "scan", id] as const,
  scans: (business: string) => ["citations", "scans", business] as const,
  estimate: (business: string) => ["citations", "estimate", business] as const,
};

export function citationEstimateQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: citationKeys.estimate(business),
    queryFn: async ({ signal }) => {
      const body = await unwrap(api.api.citations.scans.$post({ query: { estimate: "1" }, json: { business } }, withInit({ ...timeout, signal })));
      if (!("allowed" in body)) throw new ApiError(500, "bad_response", "Could not estimate the cost.");
      return body;
    },
    staleTime: 30_000,
  });
}

export function citationScanQuery(id: string) {
  return queryOptions({
    queryKey: citationKeys.scan(id),
    queryFn: ({ signal }) => unwrap(api.api.citations.scans[":id"].$get({ param: { id: encodeURIComponent(id) } }, withInit({ ...timeout, signal }))),
    refetchInterval: (query) => (query.state.data?.status === "done" ? false : query.state.error ? CITATION_POLL_MS * 2 : CITATION_POLL_MS),
  });
}

export function citationHistoryQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: citationKeys.scans(business),
    queryFn: async ({ signal }) => (await unwrap(api.api.citations.scans.$get({ query: { business } }, withInit({ ...timeout, signal })))).scans,
    refetchInterval: (query) => (query.state.data?.some((s) => s.status !== "done") ? CITATION_POLL_MS * 2 : false),
  });
}

export function useRunCitationScan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (target: RankTarget) => {
      const body = await unwrap(api.api.citations.scans.$post({ query: {}, json: { business: businessParam(target) } }, withInit(timeout)));
      if (!("sources" in body)) throw new ApiError(500, "bad_response", "The server answered something other than a scan.");
      return body as CitationScanView;
    },
    onSuccess: (scan, target) => {
      client.setQueryData(citationKeys.scan(scan.id), scan);
      void client.invalidateQueries({ queryKey: citationKeys.scans(businessParam(target)) });
      void client.invalidateQueries({ queryKey: ["citations", "estimate"] });
    },
  });
}

export const citationCsvPath = (id: string) => `/api/citations/scans/${encodeURIComponent(id)}/export.csv`;
