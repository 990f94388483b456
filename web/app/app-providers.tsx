// The app's server state and auth (TanStack Query, the typed client, auth-js, the session and the user's own profile):
// every screen reads them, so they load side by side with the first screen's code rather than in front of the shell.
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AuthProvider } from "../lib/auth";
import { queryClient } from "../lib/query-client";

export default function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>{children}</AuthProvider>
    </QueryClientProvider>
  );
}
