// The one home of server state in the web app: TanStack Query. Query options per resource live in web/queries/.
import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/** A 4xx will not change by asking again; a network blip or a 5xx may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
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
