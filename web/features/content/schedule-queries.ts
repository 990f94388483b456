// Server state of /api/schedule (the GMB Post Scheduler) and the generated post it may start from (/api/content/:id).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { SchedulePatch, ScheduleRequest, ScheduledPostJson } from "../../../worker/features/content/rules/gbp-schedule";
import { GmbPost } from "../../../worker/platform/providers/rules/gmb-post";
import { API_TIMEOUT_MS, apiFetch } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };
/** While a post is on its way to Google the list looks again this often. */
export const SCHEDULE_POLL_MS = 3000;

/** A due post waits for the next cron sweep (every 5 minutes): looked at again less often. */
export const SCHEDULE_DUE_POLL_MS = 15_000;

const inFlight = (posts: ScheduledPostJson[]) => posts.some((p) => p.state === "publishing" || p.state === "processing");
const waiting = (posts: ScheduledPostJson[]) => posts.some((p) => p.state === "scheduled" && Date.parse(p.scheduledAt) <= Date.now());

export function scheduleQuery(viewAsId: string | null) {
  return queryOptions({
    queryKey: ["schedule", viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.schedule.$get({ query: {} }, init)),
    refetchInterval: (query) => {
      const posts = query.state.data?.posts ?? [];
      return inFlight(posts) ? SCHEDULE_POLL_MS : waiting(posts) ? SCHEDULE_DUE_POLL_MS : false;
    },
  });
}

/**
 * A post the GMB Post Generator wrote (its history item, GET /api/content/:id): the GmbPost it holds, or null when
 * the item is not a GMB post.
 */
export function generatedGmbPostQuery(contentId: string | null) {
  return queryOptions({
    queryKey: ["content", contentId] as const,
    enabled: Boolean(contentId),
    queryFn: async () => {
      const body = await apiFetch<{ item?: { result?: unknown; output?: unknown } }>(`/api/content/${encodeURIComponent(contentId!)}`, { timeoutMs: API_TIMEOUT_MS });
      const parsed = GmbPost.safeParse(body?.item?.result ?? body?.item?.output);
      return parsed.success ? parsed.data : null;
    },
    retry: false,
  });
}

export function useSchedulePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleRequest) => unwrap(api.api.schedule.$post({ json: body }, init)),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["schedule"] }),
  });
}

export function useUpdateScheduledPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: SchedulePatch }) => unwrap(api.api.schedule[":id"].$patch({ param: { id }, json: patch }, init)),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["schedule"] }),
  });
}

export function useDeleteScheduledPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await unwrap(api.api.schedule[":id"].$delete({ param: { id } }, init));
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ["schedule"] }),
  });
}
