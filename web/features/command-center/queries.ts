// Server state of the command center (issue 41): the clients view (a page of stored rows, CSV, the manager, the
// admin's hidden columns and saved views), and the attention queue: the ranked items of a status (one client's, or every client's),
// an admin's act on one (done, snooze until a date, reopen), and the acts that close an item at its cause: the drafted
// reply published (Google's edit is decided through the guard's own ChangeDecision). Shapes: worker/features/command-center/rules/attention.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AttentionAction, AttentionResponse } from "../../../worker/features/command-center/rules/attention";
import type { ClientFilter, ClientSort, ClientsResponse, ViewSettings } from "../../../worker/features/command-center/rules/clients";
import type { BulkEstimate, BulkInput, BulkResult } from "../../../worker/features/command-center/rules/bulk";
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
    refetchInterval: (query) => (query.state.data?.items?.some((i) => i.review?.replyState === "queued" || i.review?.replyState === "publishing") ? ATTENTION_POLL_MS : false),
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

export type ClientsParams = { sort: ClientSort; filter: ClientFilter; q: string; manager: string; page: number };

export const clientKeys = { all: ["agency-clients"] as const, list: (p: ClientsParams) => ["agency-clients", p] as const };

const clientQuery = (p: ClientsParams) => ({ sort: p.sort, filter: p.filter, page: String(p.page), ...(p.q.trim() ? { q: p.q.trim() } : {}), ...(p.manager ? { manager: p.manager } : {}) });

export function clientsQuery(p: ClientsParams) {
  return queryOptions({
    queryKey: clientKeys.list(p),
    queryFn: async ({ signal }) => (await unwrap(api.api.agency.clients.$get({ query: clientQuery(p) }, withInit({ ...timeout, signal })))) as ClientsResponse,
    placeholderData: (previous) => previous,
  });
}

/** The filtered list as CSV text (every client the filters keep, not only the page shown). */
export async function exportClientsCsv(p: ClientsParams): Promise<string> {
  return String(await unwrap(api.api.agency.clients["export.csv"].$get({ query: clientQuery(p) }, withInit({ ...timeout, headers: { Accept: "text/csv" } }))));
}

export function useSetManager() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: { userId: string; managerId: string | null }) => unwrap(api.api.agency.clients[":userId"].$put({ param: { userId: v.userId }, json: { managerId: v.managerId } }, withInit(timeout))),
    onSuccess: () => client.invalidateQueries({ queryKey: clientKeys.all }),
  });
}

export function useSaveViewSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (settings: ViewSettings) => unwrap(api.api.agency.views.$put({ json: settings }, withInit(timeout))),
    onSuccess: () => client.invalidateQueries({ queryKey: clientKeys.all }),
  });
}

/** What a bulk action would cost the selected clients, client by client (nothing starts). */
export async function bulkEstimate(input: BulkInput): Promise<BulkEstimate> {
  return (await unwrap(api.api.agency.clients.bulk.$post({ query: { estimate: "1" }, json: input }, withInit(timeout)))) as BulkEstimate;
}

/** Starts the bulk action; a 402 (ApiError) carries the estimate in `details.estimate`. */
export function useBulkRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: BulkInput) => (await unwrap(api.api.agency.clients.bulk.$post({ query: {}, json: input }, withInit(timeout)))) as BulkResult,
    onSuccess: () => client.invalidateQueries({ queryKey: clientKeys.all }),
  });
}
