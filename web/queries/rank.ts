// The rank tools (issue 19): grid scans (estimate, run, one scan polled while its points are searched, a business's
// history, CSV, the public shared scan) and tracked keywords (list with the plan's limit, one keyword's history,
// add, pause/resume, delete, CSV). Shapes: worker/domain/rank-view.ts.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  GridEstimate,
  GridScanSummary,
  GridScanView,
  TrackedKeywordDetail,
  TrackedKeywordList,
  TrackedKeywordView,
} from "../../worker/domain/rank-view";
import type { CheckFrequency } from "../../worker/domain/rank-tracker";
import { API_TIMEOUT_MS, apiFetch, authedFetch, readApiResponse } from "../lib/api";

/** How often a scan whose points are still being searched is asked for again. */
export const GRID_POLL_MS = 2000;

/** Whose ranks: the signed-in user's own business, or a prospect's (admins). */
export type RankTarget = { own: true } | { prospectId: string };

/** The `business` query parameter the list routes read. */
export function businessParam(target: RankTarget): string {
  return "own" in target ? "own" : target.prospectId;
}

export const rankKeys = {
  all: ["rank"] as const,
  scan: (id: string) => ["rank", "scan", id] as const,
  scans: (business: string) => ["rank", "scans", business] as const,
  estimate: (business: string, size: number, radius: number, keyword: string) => ["rank", "estimate", business, size, radius, keyword] as const,
  shared: (token: string) => ["rank", "shared", token] as const,
  keywords: (business: string) => ["rank", "keywords", business] as const,
  keyword: (id: string) => ["rank", "keyword", id] as const,
};

export type GridInput = { target: RankTarget; keyword: string; size: number; radiusMiles: number };

function gridBody({ target, keyword, size, radiusMiles }: GridInput) {
  return { ...target, keyword: keyword.trim(), size, radiusMiles };
}

const timeout = { timeoutMs: API_TIMEOUT_MS };

/** What a grid would cost against the allowance left (the meter's estimate), before it runs. */
export function gridEstimateQuery(input: GridInput) {
  return queryOptions({
    queryKey: rankKeys.estimate(businessParam(input.target), input.size, input.radiusMiles, input.keyword.trim()),
    queryFn: ({ signal }) => apiFetch<GridEstimate>("/api/rank/grids?estimate=1", { ...timeout, signal, method: "POST", json: gridBody(input) }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Polls while the scan's points are being searched; a failed poll keeps what is shown and tries again later. */
export function gridScanQuery(id: string) {
  return queryOptions({
    queryKey: rankKeys.scan(id),
    queryFn: ({ signal }) => apiFetch<GridScanView>(`/api/rank/grids/${encodeURIComponent(id)}`, { ...timeout, signal }),
    refetchInterval: (query) => (query.state.data?.status === "done" ? false : query.state.error ? GRID_POLL_MS * 2 : GRID_POLL_MS),
  });
}

/** A business's scans, newest first (every keyword). */
export function gridHistoryQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: rankKeys.scans(business),
    queryFn: async ({ signal }) => {
      const { scans } = await apiFetch<{ scans: GridScanSummary[] }>(`/api/rank/grids?business=${encodeURIComponent(business)}`, { ...timeout, signal });
      return [...scans].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    refetchInterval: (query) => (query.state.data?.some((s) => s.status !== "done") ? GRID_POLL_MS * 2 : false),
  });
}

/** Starts a grid; the new scan lands in the cache and the history is read again. */
export function useRunGrid() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: GridInput) => apiFetch<GridScanView>("/api/rank/grids", { ...timeout, method: "POST", json: gridBody(input) }),
    onSuccess: (scan, input) => {
      client.setQueryData(rankKeys.scan(scan.id), scan);
      void client.invalidateQueries({ queryKey: rankKeys.scans(businessParam(input.target)) });
      void client.invalidateQueries({ queryKey: ["rank", "estimate"] });
    },
  });
}

/** The public scan behind a share link (no sign-in). */
export function sharedGridQuery(token: string) {
  return queryOptions({
    queryKey: rankKeys.shared(token),
    queryFn: ({ signal }) =>
      apiFetch<GridScanView>(`/api/shared/grids/${encodeURIComponent(token)}`, { ...timeout, signal, accessToken: null, viewAs: false }),
    retry: false,
  });
}

/** A CSV export's text (the export needs the bearer header, so the page saves it with downloadText). */
export async function fetchCsv(path: string): Promise<string> {
  const res = await authedFetch(path, { timeoutMs: API_TIMEOUT_MS * 3, headers: { Accept: "text/csv" } });
  if (!res.ok) await readApiResponse(res);
  return res.text();
}

export const gridCsvPath = (id: string) => `/api/rank/grids/${encodeURIComponent(id)}/export.csv`;
export const keywordCsvPath = (id: string) => `/api/rank/keywords/${encodeURIComponent(id)}/export.csv`;

export function trackedKeywordsQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: rankKeys.keywords(business),
    queryFn: ({ signal }) => apiFetch<TrackedKeywordList>(`/api/rank/keywords?business=${encodeURIComponent(business)}`, { ...timeout, signal }),
    // A keyword added moments ago waits for its first check: read the list again until it has one.
    refetchInterval: (query) => (query.state.data?.keywords.some((k) => !k.paused && k.lastCheckAt === null) ? GRID_POLL_MS * 2 : false),
  });
}

export function trackedKeywordQuery(id: string) {
  return queryOptions({
    queryKey: rankKeys.keyword(id),
    queryFn: ({ signal }) => apiFetch<TrackedKeywordDetail>(`/api/rank/keywords/${encodeURIComponent(id)}`, { ...timeout, signal }),
  });
}

export function useTrackKeyword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { target: RankTarget; keyword: string; frequency: CheckFrequency }) =>
      apiFetch<TrackedKeywordView>("/api/rank/keywords", {
        ...timeout,
        method: "POST",
        json: { ...input.target, keyword: input.keyword.trim(), frequency: input.frequency },
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["rank", "keywords"] }),
  });
}

export function useUpdateKeyword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      apiFetch<TrackedKeywordView>(`/api/rank/keywords/${encodeURIComponent(id)}`, { ...timeout, method: "PATCH", json: { paused } }),
    onSuccess: (_, { id }) => {
      void client.invalidateQueries({ queryKey: ["rank", "keywords"] });
      void client.invalidateQueries({ queryKey: rankKeys.keyword(id) });
    },
  });
}

export function useDeleteKeyword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<unknown>(`/api/rank/keywords/${encodeURIComponent(id)}`, { ...timeout, method: "DELETE" }),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: rankKeys.keyword(id) });
      void client.invalidateQueries({ queryKey: ["rank", "keywords"] });
    },
  });
}

/** The signed-in user's own latest figures for the dashboard cards (nothing when they have none). */
export function useOwnRankFigures(enabled: boolean) {
  const scans = useQuery({ ...gridHistoryQuery({ own: true }), enabled, retry: false, refetchInterval: false });
  const keywords = useQuery({ ...trackedKeywordsQuery({ own: true }), enabled, retry: false, refetchInterval: false });
  const lastScan = scans.data?.find((s) => s.status === "done" && s.metrics.solv !== null) ?? null;
  const list = keywords.data?.keywords ?? [];
  const moved = list.filter((k) => k.map.sinceLast.gained !== null);
  return {
    solv: lastScan ? { value: lastScan.metrics.solv!, keyword: lastScan.keyword } : null,
    keywords: moved.length
      ? { up: moved.filter((k) => k.map.sinceLast.gained! > 0).length, down: moved.filter((k) => k.map.sinceLast.gained! < 0).length }
      : null,
  };
}
