// Where the sidebar's AI Chat entry points (spec part 1 §2): newest report's chat, the open chat, the prospects list, or nowhere.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useMatch } from "react-router";
import { API_TIMEOUT_MS, ApiError, apiFetch } from "./api";

export type NewestReport =
  | { state: "loading" }
  | { state: "found"; id: string }
  | { state: "none" }
  | { state: "timed-out" };

type ReportsResponse = { reports: { id: string }[] };

/** GET /api/reports?limit=1 with the 10-second limit; a failure other than the time-out reads as "no report". */
export function newestReportQuery(accessToken: string | null | undefined) {
  return queryOptions({
    queryKey: ["reports", "newest"],
    queryFn: async ({ signal }): Promise<NewestReport> => {
      try {
        const res = await apiFetch<ReportsResponse>("/api/reports?limit=1", { accessToken, viewAs: false, timeoutMs: API_TIMEOUT_MS, signal });
        const id = res?.reports?.[0]?.id;
        return id ? { state: "found", id } : { state: "none" };
      } catch (err) {
        if (err instanceof ApiError && err.code === "timeout") return { state: "timed-out" };
        if (signal.aborted) throw err;
        return { state: "none" };
      }
    },
    retry: false,
  });
}

/** The newest report, asked only when `enabled` (an admin not viewing as). */
export function useNewestReport(enabled: boolean, accessToken: string | null | undefined): NewestReport {
  const query = useQuery({ ...newestReportQuery(accessToken), enabled });
  return query.data ?? { state: "loading" };
}

/** The AI Chat target: the open chat while on a chat route, else the newest report's chat; null for plain text. */
export function useAiChatTarget(enabled: boolean, accessToken: string | null | undefined): string | null {
  const newest = useNewestReport(enabled, accessToken);
  const openChat = useMatch("/admin/prospect-chat/:id");
  if (openChat?.params.id) return `/admin/prospect-chat/${openChat.params.id}`;
  if (newest.state === "found") return `/admin/prospect-chat/${newest.id}`;
  if (newest.state === "timed-out") return "/admin/report-generator";
  return null;
}
