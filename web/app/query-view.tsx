// A page part that waits for one query: 'Loading...', then the failure with a retry, then what its data shows.
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { RetryAlert } from "../design/alert";
import { LoadingScreen } from "./loading-screen";

export function QueryView<T>({ query, failure = "", children }: { query: UseQueryResult<T>; /** Put before the error's message. */ failure?: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <RetryAlert message={`${failure}${query.error.message}`} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
