// Server state of /api/content: each tool's history ('Recent'), one kept item, generating, editing, deleting, and a
// social plan's calendar subscription link.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ContentItem, ContentTool } from "../../../worker/features/content/rules/content";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";
import { notePendingUse, readUsageBaseline, usageBaseline } from "../usage";

/** A generation may take the server's 12-second AI time-out twice (one retry) plus the template: 30 s is ample. */
export const GENERATE_TIMEOUT_MS = 30_000;

export function contentListQuery(tool: ContentTool, viewAsId: string | null) {
  return queryOptions({
    queryKey: ["content", tool, viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.content.$get({ query: { tool } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit })),
  });
}

export function contentItemQuery(id: string, viewAsId: string | null) {
  return queryOptions({
    queryKey: ["content", "item", id, viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.content[":id"].$get({ param: { id } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit })),
  });
}

export function useGenerateContent<R>(tool: ContentTool) {
  const client = useQueryClient();
  return useMutation({
    onMutate: () => readUsageBaseline(client),
    mutationFn: async (input: object) => {
      const init = { timeoutMs: GENERATE_TIMEOUT_MS, body: JSON.stringify(input), headers: { "Content-Type": "application/json" } } as RpcInit;
      const { item } = await unwrap(api.api.content[":tool"].$post({ param: { tool } }, { init }));
      return item as ContentItem<R>;
    },
    onSuccess: (item) => {
      void client.invalidateQueries({ queryKey: ["content", tool] });
      notePendingUse(client, item.source === "ai" ? usageBaseline(client) : null);
    },
  });
}

export function useEditContent<R>() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, result }: { id: string; result: R }) => {
      const { item } = await unwrap(api.api.content[":id"].$patch({ param: { id }, json: { result } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit }));
      return item as ContentItem<R>;
    },
    onSuccess: (item) => void client.invalidateQueries({ queryKey: ["content", item.tool] }),
  });
}

export function useDeleteContent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await unwrap(api.api.content[":id"].$delete({ param: { id } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit }));
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ["content"] }),
  });
}

export function useCalendarLink() {
  return useMutation({
    mutationFn: (id: string) => unwrap(api.api.content[":id"].calendar.$post({ param: { id } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit })),
  });
}
