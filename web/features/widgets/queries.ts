// Server state of /api/widgets (issue 21): the agency's free-audit widgets, one widget with its recent leads, and
// the writes (create, edit, logo, delete).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { WidgetCreateInput, WidgetDto } from "../../../worker/features/widgets/rules/widgets";
import { API_TIMEOUT_MS, uploadFile } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

export const widgetsQuery = () =>
  queryOptions({ queryKey: ["widgets"] as const, queryFn: () => unwrap(api.api.widgets.$get(undefined, init)) });

export const widgetQuery = (id: string) =>
  queryOptions({
    queryKey: ["widgets", id] as const,
    queryFn: () => unwrap(api.api.widgets[":id"].$get({ param: { id } }, init)),
    // New leads show up while the page is open.
    refetchInterval: 15_000,
  });

function useInvalidate() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ["widgets"] });
}

export function useCreateWidget() {
  const done = useInvalidate();
  return useMutation({ mutationFn: (json: WidgetCreateInput) => unwrap(api.api.widgets.$post({ json }, init)), onSuccess: done });
}

export function useSaveWidget(id: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (json: Partial<WidgetCreateInput> & { logo?: null }) => unwrap(api.api.widgets[":id"].$patch({ param: { id }, json }, init)),
    onSuccess: done,
  });
}

export function useDeleteWidget() {
  const done = useInvalidate();
  return useMutation({ mutationFn: (id: string) => unwrap(api.api.widgets[":id"].$delete({ param: { id } }, init)), onSuccess: done });
}

export function useUploadWidgetLogo(id: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (file: File) => uploadFile<{ widget: WidgetDto }>(`/api/widgets/${encodeURIComponent(id)}/logo`, file),
    onSuccess: done,
  });
}
