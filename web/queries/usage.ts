// Server state of /api/usage (the AI usage statistics) and admins' per-user budgets.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "../lib/api";
import { api, unwrap, type RpcInit } from "../lib/rpc";

const timed = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

/** `all`: admins also get every user's usage (by user, tool, model, day). */
export function usageQuery(viewAsId: string | null, scope: "me" | "all" = "me") {
  return queryOptions({
    queryKey: ["usage", viewAsId ?? "self", scope] as const,
    queryFn: () => unwrap(api.api.usage.$get({ query: { scope } }, timed)),
  });
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
