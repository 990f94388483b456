// Server state of /api/integrations: the Google Business Profile connection, connecting, choosing locations, disconnecting.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

export function integrationsQuery(viewAsId: string | null) {
  return queryOptions({
    queryKey: ["integrations", viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.integrations.$get(undefined, init)),
  });
}

/** Asks the server for Google's sign-in address (state and PKCE stay on the server), then goes there. */
export function useConnectGoogle() {
  return useMutation({
    mutationFn: async () => {
      const { authorizeUrl } = await unwrap(api.api.integrations.google.start.$get(undefined, init));
      window.location.assign(authorizeUrl);
    },
  });
}

export function useChooseLocations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (locations: string[]) => unwrap(api.api.integrations.google.locations.$put({ json: { locations } }, init)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ["integrations"] });
      void client.invalidateQueries({ queryKey: ["schedule"] });
    },
  });
}

export function useDisconnectGoogle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.api.integrations.google.$delete(undefined, init)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ["integrations"] });
      void client.invalidateQueries({ queryKey: ["schedule"] });
    },
  });
}
