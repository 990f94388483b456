// Server state of /api/usage (the AI usage statistics), the use still being counted, and admins' per-user budgets.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const timed = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

/** `all`: admins also get every user's usage (by user, tool, model, day). */
export function usageQuery(viewAsId: string | null, scope: "me" | "all" = "me") {
  return queryOptions({
    queryKey: ["usage", viewAsId ?? "self", scope] as const,
    queryFn: () => unwrap(api.api.usage.$get({ query: { scope } }, timed)),
  });
}

/**
 * A use is logged through the usage-events queue, so right after a generation the numbers may not have it yet.
 * The generation notes the total it saw before; the panel asks again every few seconds until the total has
 * grown past it (or a minute has passed) and says the latest use is still being counted meanwhile.
 */
export const USAGE_RECHECK_MS = 2_000;
export const USAGE_COUNTING_MAX_MS = 60_000;
export const USAGE_COUNTING_NOTE = "Your latest AI use is still being counted; these numbers update in a moment.";

type PendingUse = { at: number; baseline: number };
const pendingKey = ["usage-pending"] as const;

/**
 * Before a generation: make sure the user's own total is (being) read, without holding the generation up.
 * By the time the post is back, the total read here is the one before it (the queue counts the use later).
 */
export function readUsageBaseline(client: QueryClient) {
  void client.prefetchQuery(usageQuery(null));
}

/** The user's own total as last read, or null when it is not known (then nothing is awaited). */
export function usageBaseline(client: QueryClient): number | null {
  return client.getQueryData(usageQuery(null).queryKey)?.stats.totalUsage ?? null;
}

/** After a generation that used the AI: its use is on its way through the queue. */
export function notePendingUse(client: QueryClient, baseline: number | null) {
  if (baseline !== null) client.setQueryData<PendingUse>(pendingKey, { at: Date.now(), baseline });
  void client.invalidateQueries({ queryKey: ["usage"] });
}

function stillCounting(pending: PendingUse | null | undefined, totalUsage: number | undefined, now = Date.now()): boolean {
  return Boolean(pending && totalUsage !== undefined && totalUsage <= pending.baseline && now - pending.at < USAGE_COUNTING_MAX_MS);
}

/** The user's usage (or the viewed user's), asked again while their latest use is still being counted. */
export function useUsage(viewAsId: string | null) {
  const client = useQueryClient();
  // Only ever written by notePendingUse (setQueryData); never fetched.
  const pending = useQuery({ queryKey: pendingKey, queryFn: () => null as PendingUse | null, enabled: false }).data;
  const own = viewAsId === null;
  const query = useQuery({
    ...usageQuery(viewAsId),
    refetchInterval: (q) =>
      own && stillCounting(client.getQueryData<PendingUse>(pendingKey), q.state.data?.stats.totalUsage) ? USAGE_RECHECK_MS : false,
  });
  return { query, counting: own && stillCounting(pending, query.data?.stats.totalUsage) };
}

export function budgetQuery(userId: string) {
  return queryOptions({
    queryKey: ["budget", userId] as const,
    queryFn: () => unwrap(api.api.admin.users[":id"].budget.$get({ param: { id: userId } }, timed)),
  });
}

export function useSetBudget(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (monthly_usd: number | null) =>
      unwrap(api.api.admin.users[":id"].budget.$put({ param: { id: userId }, json: { monthly_usd } }, timed)),
    onSuccess: (data) => {
      client.setQueryData(budgetQuery(userId).queryKey, data);
      void client.invalidateQueries({ queryKey: ["usage"] });
    },
  });
}
