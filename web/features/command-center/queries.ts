// Server state of the attention queue (issue 41): the ranked items of a status (one client's, or every client's),
// an admin's act on one (done, snooze until a date, reopen), and the acts that close an item at its cause: the drafted
// reply published (Google's edit is decided through the guard's own ChangeDecision). Shapes: worker/features/command-center/rules/attention.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AttentionAction, AttentionResponse } from "../../../worker/features/command-center/rules/attention";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

const timeout = { timeoutMs: API_TIMEOUT_MS };
/** While a reply is on its way to Google the queue is read again this often (the item closes when it is live). */
export const ATTENTION_POLL_MS = 3000;

export type AttentionStatusFilter = "open" | "snoozed" | "done";

export const attentionKeys = {
  all: ["attention"] as const,
  list: (status: AttentionStatusFilter, userId: string | null) => ["attention", status, userId ?? "all"] as const,
};

export function attentionQuery(status: AttentionStatusFilter, userId: string | null = null) {
  return queryOptions({
    queryKey: attentionKeys.list(status, userId),
    queryFn: async ({ signal }) =>
      (await unwrap(api.api.agency.attention.$get({ query: { status, ...(userId ? { userId } : {}) } }, withInit({ ...timeout, signal })))) as AttentionResponse,
    refetchInterval: (query) => (query.state.data?.items.some((i) => i.review?.replyState === "queued" || i.review?.replyState === "publishing") ? ATTENTION_POLL_MS : false),
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: attentionKeys.all });
}

export function useAttentionAct() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (v: { id: string; act: AttentionAction }) => unwrap(api.api.agency.attention[":id"].$post({ param: { id: v.id }, json: v.act }, withInit(timeout))),
    onSuccess: invalidate,
  });
}

/** Publishes a low review's reply from the queue (an acting admin may answer any client's review). */
export function usePublishFromQueue() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (v: { reviewId: string; comment: string }) => unwrap(api.api.reviews[":id"].reply.$put({ param: { id: v.reviewId }, json: { comment: v.comment } }, withInit(timeout))),
    onSuccess: invalidate,
  });
}
