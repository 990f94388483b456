// The rank tools (issue 19): grid scans (estimate, run, one scan polled while its points are searched, a business's
// history, CSV, the public shared scan) and tracked keywords (list with the plan's limit, one keyword's history,
// add, pause/resume, delete, CSV). Shapes: worker/features/rank/rules/view.ts.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CheckFrequency } from "../../../worker/features/rank/rules/tracker";
import { API_TIMEOUT_MS, ApiError, authedFetch, readApiResponse } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";
import type { GridScanView, TrackedKeywordView } from "../../../worker/features/rank/rules/view";

/** A keyword added moments ago whose first check has not answered yet (a failed one counts as answered: it shows). */
export function awaitingFirstCheck(k: Pick<TrackedKeywordView, "paused" | "spark" | "map" | "organic">): boolean {
  return !k.paused && k.spark.length === 0 && k.map.current === null && k.organic.current === null;
}

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
  estimate: (size: number) => ["rank", "estimate", size] as const,
  shared: (token: string) => ["rank", "shared", token] as const,
  keywords: (business: string) => ["rank", "keywords", business] as const,
  keyword: (id: string) => ["rank", "keyword", id] as const,
};

export type GridInput = { target: RankTarget; keyword: string; size: number; radiusMiles: number };

function gridBody({ target, keyword, size, radiusMiles }: GridInput) {
  return { ...target, keyword: keyword.trim(), size, radiusMiles };
}

const timeout = { timeoutMs: API_TIMEOUT_MS };
const idParam = (id: string) => ({ param: { id: encodeURIComponent(id) } });

/** A scan from a route that may also answer an estimate (POST) or an empty 304 (the shared scan). */
function asScan(body: unknown): GridScanView {
  if (typeof body !== "object" || body === null || !("points" in body)) throw new ApiError(500, "bad_response", "The server answered something other than a scan.");
  return body as GridScanView;
}

/** What a grid of this size would cost against the allowance left (the meter's estimate), before it runs. */
export function gridEstimateQuery(size: number) {
  return queryOptions({
    queryKey: rankKeys.estimate(size),
    queryFn: async ({ signal }) => {
      const body = await unwrap(api.api.rank.grids.$get({ query: { estimate: "1", size: String(size) } }, withInit({ ...timeout, signal })));
      if (!("allowed" in body)) throw new ApiError(500, "bad_response", "Could not estimate the cost.");
      return body;
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Polls while the scan's points are being searched; a failed poll keeps what is shown and tries again later. */
export function gridScanQuery(id: string) {
  return queryOptions({
    queryKey: rankKeys.scan(id),
    queryFn: ({ signal }) => unwrap(api.api.rank.grids[":id"].$get(idParam(id), withInit({ ...timeout, signal }))),
    refetchInterval: (query) => (query.state.data?.status === "done" ? false : query.state.error ? GRID_POLL_MS * 2 : GRID_POLL_MS),
  });
}

/** A business's scans, newest first (every keyword). */
export function gridHistoryQuery(target: RankTarget) {
  const business = businessParam(target);
  return queryOptions({
    queryKey: rankKeys.scans(business),
    queryFn: async ({ signal }) => {
      const body = await unwrap(api.api.rank.grids.$get({ query: { business } }, withInit({ ...timeout, signal })));
      if (!("scans" in body)) throw new ApiError(500, "bad_response", "Could not load the scans.");
      return [...body.scans].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    refetchInterval: (query) => (query.state.data?.some((s) => s.status !== "done") ? GRID_POLL_MS * 2 : false),
  });
}

/** Starts a grid; the new scan lands in the cache and the history is read again. */
export function useRunGrid() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: GridInput) => asScan(await unwrap(api.api.rank.grids.$post({ query: {}, json: gridBody(input) }, withInit(timeout)))),
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
    queryFn: async ({ signal }) =>
      asScan(await unwrap(api.api.shared.grids[":token"].$get({ param: { token: encodeURIComponent(token) } }, withInit({ ...timeout, signal, accessToken: null, viewAs: false })))),
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
    queryFn: ({ signal }) => unwrap(api.api.rank.keywords.$get({ query: { business } }, withInit({ ...timeout, signal }))),
    // A keyword added moments ago waits for its first check: read the list again until it has one.
    refetchInterval: (query) => (query.state.data?.keywords.some(awaitingFirstCheck) ? GRID_POLL_MS : false),
  });
}

export function trackedKeywordQuery(id: string) {
  return queryOptions({
    queryKey: rankKeys.keyword(id),
    queryFn: ({ signal }) => unwrap(api.api.rank.keywords[":id"].$get(idParam(id), withInit({ ...timeout, signal }))),
    refetchInterval: (query) => (query.state.data && awaitingFirstCheck(query.state.data) ? GRID_POLL_MS : false),
  });
}

export function useTrackKeyword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { target: RankTarget; keyword: string; frequency: CheckFrequency }) =>
      unwrap(api.api.rank.keywords.$post({ json: { ...input.target, keyword: input.keyword.trim(), frequency: input.frequency } }, withInit(timeout))),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["rank", "keywords"] }),
  });
}

export function useUpdateKeyword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      unwrap(api.api.rank.keywords[":id"].$patch({ ...idParam(id), json: { paused } }, withInit(timeout))),
    onSuccess: (_, { id }) => {
      void client.invalidateQueries({ queryKey: ["rank", "keywords"] });
      void client.invalidateQueries({ queryKey: rankKeys.keyword(id) });
    },
  });
}

export function useDeleteKeyword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.api.rank.keywords[":id"].$delete(idParam(id), withInit(timeout))),
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
    /** Keywords whose latest check is an alert (a drop of 3+ places, or out of the top 3), paused ones left out. */
    alerts: list.filter((k) => k.alerts.length > 0 && !k.paused),
  };
}
