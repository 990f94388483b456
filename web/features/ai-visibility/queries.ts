// AI Visibility (issue 29): the questions (saved or suggested) and the engines, the estimate, a scan (polled while its
// answers come in), a business's scans, one answer; run a scan, add/edit/remove/track a question.
// Shapes: worker/features/ai-visibility/rules/contract.ts.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { AIV_POLL_MS, type AiEngine, type AnswerView, type EstimateView, type QuestionsView, type ScanHistoryRow, type ScanView, type TrackedQuestion } from "../../../worker/features/ai-visibility/rules/contract";
import { API_TIMEOUT_MS, apiFetch } from "../../lib/api";
import { businessParam, type RankTarget } from "../rank";

const timeout = { timeoutMs: API_TIMEOUT_MS };
const BASE = "/api/ai-visibility";

/** What a scan asks: which questions, on which engines, how many times each. */
export type ScanRequest = { questions: string[]; engines: AiEngine[]; samples: number };

export const aivKeys = {
  all: ["ai-visibility"] as const,
  questions: (business: string) => ["ai-visibility", "questions", business] as const,
  scans: (business: string) => ["ai-visibility", "scans", business] as const,
  scan: (id: string) => ["ai-visibility", "scan", id] as const,
  answer: (id: string) => ["ai-visibility", "answer", id] as const,
  estimate: (business: string, req: ScanRequest) => ["ai-visibility", "estimate", business, req] as const,
};

const withBusiness = (path: string, business: string) => `${path}?${new URLSearchParams({ business }).toString()}`;

export function aivQuestionsQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: aivKeys.questions(business),
    queryFn: ({ signal }) => apiFetch<QuestionsView>(withBusiness(`${BASE}/questions`, business), { ...timeout, signal }),
  });
}

export function aivEstimateQuery(target: RankTarget, req: ScanRequest) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: aivKeys.estimate(business, req),
    queryFn: ({ signal }) => apiFetch<EstimateView>(`${BASE}/scans?estimate=1`, { method: "POST", json: { business, ...req }, ...timeout, signal }),
    staleTime: 30_000,
    // The figure stays on screen while a changed choice is priced again.
    placeholderData: keepPreviousData,
  });
}

const finished = (status: ScanView["status"] | undefined) => status === "done" || status === "failed";

export function aivScanQuery(id: string) {
  return queryOptions({
    queryKey: aivKeys.scan(id),
    queryFn: ({ signal }) => apiFetch<ScanView>(`${BASE}/scans/${encodeURIComponent(id)}`, { ...timeout, signal }),
    refetchInterval: (query) => (finished(query.state.data?.status) ? false : query.state.error ? AIV_POLL_MS * 2 : AIV_POLL_MS),
  });
}

export function aivScansQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: aivKeys.scans(business),
    queryFn: async ({ signal }) => (await apiFetch<{ scans: ScanHistoryRow[] }>(withBusiness(`${BASE}/scans`, business), { ...timeout, signal })).scans,
    refetchInterval: (query) => (query.state.data?.some((s) => !finished(s.status)) ? AIV_POLL_MS * 2 : false),
  });
}

export function aivAnswerQuery(id: string) {
  return queryOptions({
    queryKey: aivKeys.answer(id),
    queryFn: ({ signal }) => apiFetch<AnswerView>(`${BASE}/answers/${encodeURIComponent(id)}`, { ...timeout, signal }),
    staleTime: Infinity,
  });
}

export function useRunAiScan(target: RankTarget) {
  const client = useQueryClient();
  const business = businessParam(target);
  return useMutation({
    mutationFn: (req: ScanRequest) => apiFetch<ScanView>(`${BASE}/scans`, { method: "POST", json: { business, ...req }, ...timeout }),
    onSuccess: (scan) => {
      client.setQueryData(aivKeys.scan(scan.id), scan);
      void client.invalidateQueries({ queryKey: aivKeys.scans(business) });
      void client.invalidateQueries({ queryKey: ["ai-visibility", "estimate"] });
    },
  });
}

export type QuestionChange =
  | { op: "add"; text: string; tracked: boolean }
  | { op: "edit"; id: string; text?: string; tracked?: boolean }
  | { op: "remove"; id: string };

/** One change to the question list; the list is read again after it. */
export function useChangeQuestion(target: RankTarget) {
  const client = useQueryClient();
  const business = businessParam(target);
  return useMutation({
    mutationFn: async (change: QuestionChange): Promise<TrackedQuestion | null> => {
      if (change.op === "add") return apiFetch<TrackedQuestion>(`${BASE}/questions`, { method: "POST", json: { business, text: change.text, tracked: change.tracked }, ...timeout });
      const path = `${BASE}/questions/${encodeURIComponent(change.id)}`;
      if (change.op === "remove") {
        await apiFetch(path, { method: "DELETE", ...timeout });
        return null;
      }
      const { id: _id, op: _op, ...patch } = change;
      return apiFetch<TrackedQuestion>(path, { method: "PATCH", json: patch, ...timeout });
    },
    onSettled: () => client.invalidateQueries({ queryKey: aivKeys.questions(business) }),
  });
}
