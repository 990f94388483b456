// Server state of /api/webhooks (admins): endpoints, add/edit/rotate/pause/resume/delete, the delivery log, test, replay.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookEvent } from "../../../worker/platform/notifications/rules/lead-events";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };
/** The log looks again this often while a delivery is on its way. */
export const DELIVERIES_POLL_MS = 3000;

export function webhooksQuery() {
  return queryOptions({
    queryKey: ["webhooks"] as const,
    queryFn: () => unwrap(api.api.webhooks.$get(undefined, init)),
  });
}

export function deliveriesQuery(endpointId: string) {
  return queryOptions({
    queryKey: ["webhooks", endpointId, "deliveries"] as const,
    queryFn: () => unwrap(api.api.webhooks[":id"].deliveries.$get({ param: { id: endpointId }, query: {} }, init)),
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === "pending" || d.status === "sending") ? DELIVERIES_POLL_MS : false),
  });
}

export type EndpointInput = { url: string; description?: string; events: WebhookEvent[] };
export type EndpointPatch = Partial<EndpointInput> & { status?: "active" | "paused"; rotateSecret?: true };

function useInvalidate() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ["webhooks"] });
}

export function useAddEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: EndpointInput) => unwrap(api.api.webhooks.$post({ json: input }, init)), onSuccess: invalidate });
}

export function useUpdateEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: EndpointPatch }) => unwrap(api.api.webhooks[":id"].$patch({ param: { id }, json: patch }, init)),
    onSuccess: invalidate,
  });
}

export function useDeleteEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => unwrap(api.api.webhooks[":id"].$delete({ param: { id } }, init)), onSuccess: invalidate });
}

export function useSendTest() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => unwrap(api.api.webhooks[":id"].test.$post({ param: { id }, json: {} }, init)), onSuccess: invalidate });
}

export function useReplay() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      unwrap(api.api.webhooks[":id"].deliveries[":deliveryId"].replay.$post({ param: { id, deliveryId } }, init)),
    onSuccess: invalidate,
  });
}
