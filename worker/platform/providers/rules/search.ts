// What the web search client (worker/platform/providers/search.ts) takes and gives, and its time-out's wording, which
// the search tools show too (worker/features/tools/rules/search-tools.ts). Pure.

/** Spec part 2 §9. */
export const SEARCH_TIMEOUT_MS = 15_000;

/** One search: a keyword in a place. */
export type SearchQuery = { keyword: string; location: string };

/** Spec §3 search result. */
export type SearchResult = {
  title: string;
  snippet: string;
  link: string;
  displayedLink: string;
  position: number;
  favicon: string | null;
};

/** 'Request timed out after 15 seconds' (spec §8), for the configured time-out. */
export function timeoutMessage(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return `Request timed out after ${s} second${s === 1 ? "" : "s"}`;
}
