// Audits (issue 18): one audit polled while its steps run, the history of a business's audits, starting one, and
// picking the Google listing when none matched.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditSummary, AuditView } from "../../worker/domain/audit-view";
import { API_TIMEOUT_MS, apiFetch } from "../lib/api";

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
    queryFn: ({ signal }) => apiFetch<AuditView>(`/api/audits/${encodeURIComponent(id)}`, { timeoutMs: API_TIMEOUT_MS, signal }),
    refetchInterval: untilDone,
  });
}

function historyPath(target: AuditTarget): string {
  return "own" in target ? "/api/audits?own=1" : `/api/audits?prospectId=${encodeURIComponent(target.prospectId)}`;
}

export function auditHistoryQuery(target: AuditTarget) {
  return queryOptions({
    queryKey: auditKeys.history(target),
    queryFn: async ({ signal }) => {
      const body = await apiFetch<{ audits: AuditSummary[] } | AuditSummary[]>(historyPath(target), { timeoutMs: API_TIMEOUT_MS, signal });
      return newestFirst(Array.isArray(body) ? body : (body.audits ?? []));
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
      apiFetch<AuditView>("/api/audits", { method: "POST", json: "own" in target ? { own: true } : { prospectId: target.prospectId }, timeoutMs: API_TIMEOUT_MS }),
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
      apiFetch<AuditView>(`/api/audits/${encodeURIComponent(auditId)}/listing`, { method: "POST", json: choice, timeoutMs: API_TIMEOUT_MS }),
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
