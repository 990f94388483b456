// The review inbox (issue 28): the inbox of a filter (polled while a reply is on its way or a check runs), check now,
// draft, publish, delete a reply, and the settings. Shapes: worker/features/reviews/rules/reviews.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewFilter, ReviewInboxResponse, ReviewJson, ReviewSettingsInput } from "../../../worker/features/reviews/rules/reviews";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

const timeout = { timeoutMs: API_TIMEOUT_MS };
export const REVIEWS_POLL_MS = 2000;

export const reviewKeys = {
  all: ["reviews"] as const,
  inbox: (filter: ReviewFilter) => ["reviews", "inbox", filter] as const,
  settings: ["reviews", "settings"] as const,
};

const busy = (r: ReviewJson) => ["queued", "publishing", "delete_queued", "deleting"].includes(r.replyState);

export function reviewInboxQuery(filter: ReviewFilter, checking: boolean) {
  return queryOptions({
    queryKey: reviewKeys.inbox(filter),
    queryFn: async ({ signal }) => (await unwrap(api.api.reviews.$get({ query: { business: "own", filter } }, withInit({ ...timeout, signal })))) as ReviewInboxResponse,
    refetchInterval: (query) => (checking || query.state.data?.reviews.some(busy) ? REVIEWS_POLL_MS : false),
  });
}

export function reviewSettingsQuery() {
  return queryOptions({
    queryKey: reviewKeys.settings,
    queryFn: async ({ signal }) => (await unwrap(api.api.reviews.settings.$get({}, withInit({ ...timeout, signal })))).settings,
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: reviewKeys.all });
}

export function useCheckNow() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: async () => unwrap(api.api.reviews.sync.$post({}, withInit(timeout))), onSuccess: invalidate });
}

export function useDraftReply() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: string) => (await unwrap(api.api.reviews[":id"].draft.$post({ param: { id } }, withInit({ timeoutMs: 30_000 })))).review,
    onSuccess: invalidate,
  });
}

export function usePublishReply() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (v: { id: string; comment: string }) => (await unwrap(api.api.reviews[":id"].reply.$put({ param: { id: v.id }, json: { comment: v.comment } }, withInit(timeout)))).review,
    onSuccess: invalidate,
  });
}

export function useDeleteReply() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: string) => (await unwrap(api.api.reviews[":id"].reply.$delete({ param: { id } }, withInit(timeout)))).review,
    onSuccess: invalidate,
  });
}

export function useSaveReviewSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (settings: ReviewSettingsInput) => (await unwrap(api.api.reviews.settings.$put({ json: settings }, withInit(timeout)))).settings,
    onSuccess: (settings) => client.setQueryData(reviewKeys.settings, settings),
  });
}
