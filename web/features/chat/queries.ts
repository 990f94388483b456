// Server state of the chat screens: the bootstraps, the public conversations and the prospect switcher's list.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const timed = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

export function adminChatQuery(reportId: string) {
  return queryOptions({
    queryKey: ["chat", reportId],
    queryFn: () => unwrap(api.api.chat[":reportId"].$get({ param: { reportId } }, timed)),
  });
}

export function sharedChatQuery(reportId: string) {
  return queryOptions({
    queryKey: ["shared-chat", reportId],
    queryFn: () =>
      unwrap(api.api.shared.chat[":reportId"].$get({ param: { reportId } }, { init: { timeoutMs: API_TIMEOUT_MS, accessToken: null, viewAs: false } as RpcInit })),
    staleTime: Infinity,
  });
}

/** The Conversations list, a page at a time (those with contact details first, then newest). */
export function conversationsQuery(reportId: string) {
  return infiniteQueryOptions({
    queryKey: ["chat", reportId, "conversations"],
    queryFn: ({ pageParam }) =>
      unwrap(api.api.chat[":reportId"].conversations.$get({ param: { reportId }, query: pageParam ? { cursor: pageParam } : {} }, timed)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 5_000,
  });
}

/** Every prospect with a report, newest first, searched on the server (the switcher). */
export function chatSwitcherQuery(q: string) {
  return queryOptions({
    queryKey: ["prospects", "chat-switcher", q],
    queryFn: () => unwrap(api.api.prospects.$get({ query: { q, limit: "50" } }, timed)),
  });
}

export type AdminChatData = Awaited<ReturnType<NonNullable<ReturnType<typeof adminChatQuery>["queryFn"]>>>;
export type SharedChatData = Awaited<ReturnType<NonNullable<ReturnType<typeof sharedChatQuery>["queryFn"]>>>;

