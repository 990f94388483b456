// Server state of /api/posts: generating a Facebook post (the spec's per-attempt time-outs and retries), the kept posts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ALL_TIMED_OUT_MESSAGE,
  POST_MAX_RETRIES,
  POST_RETRY_DELAY_MS,
  attemptTimeoutMs,
  type PostRequestInput,
  type PostResponse,
} from "../../../worker/features/content/rules/facebook-post";
import { API_TIMEOUT_MS, ApiError } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";
import { notePendingUse, readUsageBaseline, usageBaseline } from "../usage";

export function postsQuery(viewAsId: string | null) {
  return queryOptions({
    queryKey: ["posts", viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.posts.$get(undefined, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit })),
  });
}

function isTimeout(error: unknown): boolean {
  return error instanceof ApiError && (error.code === "timeout" || error.code === "ai_timeout");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spec §9: each attempt may take 15 s + 5 s per attempt index; a time-out is retried up to 3 times,
 * 2 s apart, announcing 'Attempt n of 3'. Other failures are not retried.
 */
export async function generateWithRetries(
  input: PostRequestInput,
  onRetry: (attempt: number) => void,
  send = (body: PostRequestInput, timeoutMs: number) =>
    unwrap(api.api.posts.facebook.$post({ json: body }, { init: { timeoutMs } as RpcInit })) as Promise<PostResponse>,
): Promise<PostResponse> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send(input, attemptTimeoutMs(attempt));
    } catch (error) {
      if (!isTimeout(error)) throw error;
      if (attempt >= POST_MAX_RETRIES) throw new ApiError(0, "timeout", ALL_TIMED_OUT_MESSAGE);
      onRetry(attempt + 1);
      await sleep(POST_RETRY_DELAY_MS);
    }
  }
}

export function useGeneratePost(onRetry: (attempt: number) => void) {
  const client = useQueryClient();
  return useMutation({
    // The total before this use, so the usage screens can tell when the queue has counted it (read alongside,
    // never in front of, the generation).
    onMutate: () => readUsageBaseline(client),
    mutationFn: (input: PostRequestInput) => generateWithRetries(input, onRetry),
    onSuccess: (data) => {
      void client.invalidateQueries({ queryKey: ["posts"] });
      // Only an AI-written post logs a use; a template one leaves the numbers as they are.
      notePendingUse(client, data.post.source === "ai" ? usageBaseline(client) : null);
    },
  });
}

export function useEditPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) =>
      unwrap(api.api.posts[":id"].$patch({ param: { id }, json: { content } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["posts"] }),
  });
}

export function useDeletePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await unwrap(api.api.posts[":id"].$delete({ param: { id } }, { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit }));
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ["posts"] }),
  });
}
