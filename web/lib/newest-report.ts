// Where the sidebar's AI Chat entry points (spec §2): newest report's chat, the open chat, the prospects list, or nowhere.
import { useEffect, useState } from "react";
import { useMatch } from "react-router";
import { API_TIMEOUT_MS, ApiError, apiFetch } from "./api";

export type NewestReport =
  | { state: "loading" }
  | { state: "found"; id: string }
  | { state: "none" }
  | { state: "timed-out" };

type ReportsResponse = { reports: { id: string }[] };

/** GET /api/reports?limit=1 with the 10-second limit; only asked for when `enabled` (an admin not viewing as). */
export function useNewestReport(enabled: boolean, accessToken: string | null | undefined): NewestReport {
  const [result, setResult] = useState<NewestReport>({ state: "loading" });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setResult({ state: "loading" });
    apiFetch<ReportsResponse>("/api/reports?limit=1", {
      accessToken,
      viewAs: false,
      timeoutMs: API_TIMEOUT_MS,
      signal: controller.signal,
    })
      .then((res) => {
        const id = res?.reports?.[0]?.id;
        setResult(id ? { state: "found", id } : { state: "none" });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        // A timeout links to the prospects list; anything else (404 while reports do not exist) reads as "no report".
        setResult(err instanceof ApiError && err.code === "timeout" ? { state: "timed-out" } : { state: "none" });
      });
    return () => controller.abort();
    // The token rotates every hour; one lookup per sign-in is enough.
  }, [enabled]);
  return result;
}

/** The AI Chat target: a path, or null for plain text. */
export function useAiChatTarget(enabled: boolean, accessToken: string | null | undefined): string | null {
  const newest = useNewestReport(enabled, accessToken);
  const openChat = useMatch("/admin/prospect-chat/:id");
  if (openChat?.params.id) return `/admin/prospect-chat/${openChat.params.id}`;
  if (newest.state === "found") return `/admin/prospect-chat/${newest.id}`;
  if (newest.state === "timed-out") return "/admin/report-generator";
  return null;
}
