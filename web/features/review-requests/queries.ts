// Review requests (issue 28): the list and figures, making requests, the link (JSON, SVG, PNG), the settings and the
// hook address. Shapes: worker/features/review-requests/rules/review-requests.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { RequestSettingsBody } from "../../../worker/features/review-requests/rules/review-requests";
import type { ReviewLinkView } from "../../../worker/features/review-requests/requests";
import { API_TIMEOUT_MS, authedFetch, readApiResponse } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

const timeout = { timeoutMs: API_TIMEOUT_MS };
const rr = api.api["review-requests"];
export const reviewRequestKeys = { list: ["review-requests"] as const, link: ["review-requests", "link"] as const, settings: ["review-requests", "settings"] as const };

export const reviewRequestsQuery = queryOptions({
  queryKey: reviewRequestKeys.list,
  queryFn: ({ signal }) => unwrap(rr.$get({}, withInit({ ...timeout, signal }))),
});

export const reviewLinkQuery = queryOptions({
  queryKey: reviewRequestKeys.link,
  // JSON here (the route also answers the SVG and PNG, read with fetchQr).
  queryFn: async ({ signal }) => (await unwrap(rr.link.$get({ query: {} }, withInit({ ...timeout, signal })))) as ReviewLinkView,
});

export const requestSettingsQuery = queryOptions({
  queryKey: reviewRequestKeys.settings,
  queryFn: ({ signal }) => unwrap(rr.settings.$get({}, withInit({ ...timeout, signal }))),
});

/** The QR code as a Blob (the route needs the bearer header, so no plain <img src>). */
export async function fetchQr(format: "svg" | "png"): Promise<Blob> {
  const res = await authedFetch(`/api/review-requests/link?format=${format}`, { timeoutMs: API_TIMEOUT_MS });
  if (!res.ok) await readApiResponse(res);
  return res.blob();
}

export function useCreateRequests() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (json: { name: string; email?: string; phone?: string } | { csv: string }) => unwrap(rr.$post({ json }, withInit(timeout))),
    onSuccess: () => client.invalidateQueries({ queryKey: reviewRequestKeys.list }),
  });
}

export function useSaveRequestSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (json: RequestSettingsBody) => unwrap(rr.settings.$put({ json }, withInit(timeout))),
    onSuccess: (data) => {
      client.setQueryData(reviewRequestKeys.settings, data);
      void client.invalidateQueries({ queryKey: reviewRequestKeys.link });
    },
  });
}

export function useRotateHook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(rr.settings.hook.$post({}, withInit(timeout))),
    onSuccess: () => client.invalidateQueries({ queryKey: reviewRequestKeys.settings }),
  });
}
