// Where the sidebar's AI Chat entry points (spec §2): newest report's chat, the open chat, the prospects list, or nowhere.
import { useQuery } from "@tanstack/react-query";
import { useMatch } from "react-router";
import { newestReportQuery } from "./queries";
import { ApiError } from "../../lib/api";

export type NewestReport =
  | { state: "loading" }
  | { state: "found"; id: string }
  | { state: "none" }
  | { state: "timed-out" };

/** GET /api/reports?limit=1 with the 10-second limit; only asked for when `enabled` (an admin not viewing as). */
export function useNewestReport(enabled: boolean, accessToken: string | null | undefined): NewestReport {
  // The token rotates every hour; one lookup per sign-in is enough (the query never goes stale).
  const query = useQuery({ ...newestReportQuery(accessToken), enabled });
  if (query.data) {
    const id = query.data.reports[0]?.id;
    return id ? { state: "found", id } : { state: "none" };
  }
  // A timeout links to the prospects list; anything else (404 while reports do not exist) reads as "no report".
  if (query.isError) return query.error instanceof ApiError && query.error.code === "timeout" ? { state: "timed-out" } : { state: "none" };
  return { state: "loading" };
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
