// Server state of /api/notifications: the bell (list, unread count, mark read) and the per-kind alert settings.
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AlertKind } from "../../../worker/platform/notifications/rules/lead-events";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };
/** The bell looks for new alerts this often while the app is open. */
export const BELL_POLL_MS = 60_000;

export function notificationsQuery(viewAsId: string | null) {
  return infiniteQueryOptions({
    queryKey: ["notifications", viewAsId ?? "self"] as const,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => unwrap(api.api.notifications.$get({ query: pageParam ? { cursor: pageParam } : {} }, init)),
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: BELL_POLL_MS,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[] | "all") => unwrap(api.api.notifications.read.$post({ json: ids === "all" ? { all: true } : { ids } }, init)),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["notifications"] }),
  });
}

export function notificationSettingsQuery(viewAsId: string | null) {
  return queryOptions({
    queryKey: ["notification-settings", viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.notifications.settings.$get(undefined, init)),
  });
}

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: { kind: AlertKind; inApp: boolean; byMail: boolean }[]) => unwrap(api.api.notifications.settings.$put({ json: { settings } }, init)),
    onSuccess: (data) => client.setQueryData(["notification-settings", "self"], data),
  });
}
