// Server state of /api/capabilities (what a customer's screens may offer) and /api/admin/setup (the admin Set-up checklist).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Capabilities } from "../../../worker/features/setup/rules/setup";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

export function capabilitiesQuery() {
  return queryOptions({
    queryKey: ["capabilities"] as const,
    queryFn: () => unwrap(api.api.capabilities.$get({}, init)),
    staleTime: 5 * 60_000,
  });
}

/** What the screens may offer; while unknown, everything is assumed available (the server still refuses with a code). */
export function useCapabilities(): Capabilities | null {
  return useQuery(capabilitiesQuery()).data ?? null;
}

export function adminSetupQuery() {
  return queryOptions({
    queryKey: ["admin", "setup"] as const,
    queryFn: () => unwrap(api.api.admin.setup.$get({}, init)),
  });
}
