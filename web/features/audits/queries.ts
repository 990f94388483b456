// Audits (issue 18): one audit polled while its steps run, the history of a business's audits, starting one, and
// picking the Google listing when none matched.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditSummary } from "../../../worker/features/audits/rules/view";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

/** How often an audit whose steps are still running is asked for again. */
export const AUDIT_POLL_MS = 2000;

/** Whose audits: the signed-in user's own business, or a prospect's (admins). */
export type AuditTarget = { own: true } | { prospectId: string };

export const auditKeys = {
  all: ["audits"] as const,
  one: (id: string) => ["audits", "one", id] as const,
  history: (target: AuditTarget) => ["audits", "history", "own" in target ? "own" : target.prospectId] as const,
};

/** Polls while the audit runs; a failed poll keeps what is shown and tries again twice as late. */
function untilDone(query: { state: { data?: { status: string }; error: unknown } }) {
  if (query.state.data?.status === "done") return false;
  return query.state.error ? AUDIT_POLL_MS * 2 : AUDIT_POLL_MS;
}

export function auditQuery(id: string) {
  return queryOptions({
    queryKey: auditKeys.one(id),
    queryFn: ({ signal }) =>
      unwrap(api.api.audits[":id"].$get({ param: { id: encodeURIComponent(id) } }, withInit({ timeoutMs: API_TIMEOUT_MS, signal }))),
    refetchInterval: untilDone,
  });
}

export function auditHistoryQuery(target: AuditTarget) {
  return queryOptions({
    queryKey: auditKeys.history(target),
    queryFn: async ({ signal }) => {
      const query = "own" in target ? { own: "1" as const } : { prospectId: target.prospectId };
      const { audits } = await unwrap(api.api.audits.$get({ query }, withInit({ timeoutMs: API_TIMEOUT_MS, signal })));
      return newestFirst(audits);
    },
    // While an audit in the list runs, its row (status, score) is read again.
    refetchInterval: (query) => (query.state.data?.some((a) => a.status !== "done") ? AUDIT_POLL_MS * 2 : false),
  });
}

/** Starts an audit; the new audit lands in the cache and the history is read again. */
export function useStartAudit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (target: AuditTarget) =>
      unwrap(
        api.api.audits.$post(
          { json: "own" in target ? { own: true as const } : { prospectId: target.prospectId } },
          withInit({ timeoutMs: API_TIMEOUT_MS }),
        ),
      ),
    onSuccess: (audit, target) => {
      client.setQueryData(auditKeys.one(audit.id), audit);
      void client.invalidateQueries({ queryKey: auditKeys.history(target) });
    },
  });
}

export type ListingChoice = { placeId: string } | { mapsUrl: string };

/** Picks the Google listing for an audit whose find step matched none; the audit's checks are made again. */
export function usePickListing(auditId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (choice: ListingChoice) =>
      unwrap(
        api.api.audits[":id"].listing.$post({ param: { id: encodeURIComponent(auditId) }, json: choice }, withInit({ timeoutMs: API_TIMEOUT_MS })),
      ),
    onSuccess: (audit) => {
      client.setQueryData(auditKeys.one(audit.id), audit);
      void client.invalidateQueries({ queryKey: ["reports"] });
    },
  });
}

/** Newest first, whatever order the server answered in. */
export function newestFirst(audits: readonly AuditSummary[]): AuditSummary[] {
  return [...audits].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** A business's audits and the one shown: the chosen one, else the newest (polled while it runs). */
export function useAudits(target: AuditTarget | null, chosenId: string | null = null) {
  const history = useQuery({ ...auditHistoryQuery(target ?? { own: true }), enabled: target !== null });
  const list = history.data ?? [];
  const id = chosenId ?? list[0]?.id ?? null;
  const audit = useQuery({ ...auditQuery(id ?? ""), enabled: id !== null });
  return { history, list, id, audit };
}
