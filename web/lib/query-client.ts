// The one home of server state in the web app: TanStack Query. Query options per resource live in web/queries/.
import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/**
 * Only a dropped connection is asked again at once (once). A server's answer and a time-out are shown as
 * they are: every screen has its own Retry, and polled screens ask again on their next poll anyway.
 */
function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.code === "network" && failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
