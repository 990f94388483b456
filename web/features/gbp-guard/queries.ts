// Server state of the profile guard (issue 41): a business's watched locations and changes (polled while a check is
// on its way), Check now, and accept or reject. Shapes: worker/features/gbp-guard/rules/guard.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { GuardResponse } from "../../../worker/features/gbp-guard/rules/guard";
import type { OwnerEdit } from "../../../worker/features/gbp-guard/rules/edit";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

const timeout = { timeoutMs: API_TIMEOUT_MS };
export const GUARD_POLL_MS = 3000;
export const guardKeys = { all: ["gbp-guard"] as const, of: (business: string) => ["gbp-guard", business] as const };

/** `business`: "own", or a client's user id (admins). Read again while a location is queued or being checked. */
export function guardQuery(business = "own", viewAs: string | null = null) {
  return queryOptions({
    queryKey: [...guardKeys.of(business), viewAs ?? "self"],
    queryFn: async ({ signal }) => (await unwrap(api.api.gbp.guard.$get({ query: { business } }, withInit({ ...timeout, signal })))) as GuardResponse,
    refetchInterval: (query) => (query.state.data?.locations?.some((l) => l.status === "queued" || l.status === "checking") ? GUARD_POLL_MS : false),
  });
}

export function useCheckGuard(business = "own") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(api.api.gbp.guard.check.$post({ query: { business } }, withInit(timeout))),
    onSuccess: () => client.invalidateQueries({ queryKey: guardKeys.all }),
  });
}

/** Accept or reject a change; `confirmRisks` sends a value the risk check warned about. `onDecided` refreshes the caller's own list. */
export function useGuardDecision(onDecided?: () => unknown) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: { changeId: string; decision: "accept" | "reject"; confirmRisks?: boolean }) =>
      unwrap(
        api.api.gbp.guard[":id"][v.decision].$post(
          { param: { id: v.changeId } },
          withInit({ ...timeout, body: JSON.stringify(v.confirmRisks ? { confirmRisks: true } : {}), headers: { "Content-Type": "application/json" } }),
        ),
      ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: guardKeys.all });
      await onDecided?.();
    },
  });
}

/** The owner's own edit of a location (name, address, phone, website); a risky value answers 409 `edit_risky` with `details.risks`. */
export function useOwnerEdit(business = "own") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: OwnerEdit) => unwrap(api.api.gbp.guard.edit.$post({ query: { business }, json: input }, withInit(timeout))),
    onSuccess: () => client.invalidateQueries({ queryKey: guardKeys.all }),
  });
}
