// Prospects: the infinite list per search, import, tag change (optimistic, rolled back on failure), delete, CSV export.
import { infiniteQueryOptions, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { ProspectDto, ProspectListResponse, ProspectSort } from "../../../worker/features/accounts/rules/admin-api";
import type { Category } from "../../../worker/domain/categories";
import { api, unwrap, withInit } from "../../lib/rpc";

export const prospectKeys = {
  all: ["prospects"] as const,
  list: (q: string, sort: ProspectSort = "newest") => ["prospects", "list", q, sort] as const,
};

type ProspectPages = InfiniteData<ProspectListResponse, string | null>;

/** Newest first (or most recently opened), one page per cursor; `q` is the settled search text. */
export function prospectListQuery(q: string, sort: ProspectSort = "newest") {
  return infiniteQueryOptions({
    queryKey: prospectKeys.list(q, sort),
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.api.prospects.$get(
          { query: { q: q || undefined, cursor: pageParam ?? undefined, sort: sort === "newest" ? undefined : sort } },
          withInit({ signal }),
        ),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The pages as one list: a row already shown (the list moved under us) is not shown twice. */
export function flattenPages(data: InfiniteData<ProspectListResponse, unknown> | undefined) {
  const seen = new Set<string>();
  const items: ProspectDto[] = [];
  for (const page of data?.pages ?? []) {
    for (const p of page.prospects) {
      if (!seen.has(p.id)) {
        seen.add(p.id);
        items.push(p);
      }
    }
  }
  const last = data?.pages[data.pages.length - 1];
  return { items, total: last?.total ?? 0, all: last?.all ?? 0 };
}

/** Applies `change` to every cached page of every search. */
function editPages(client: ReturnType<typeof useQueryClient>, change: (page: ProspectListResponse) => ProspectListResponse) {
  client.setQueriesData<ProspectPages>({ queryKey: prospectKeys.all }, (data) =>
    data ? { ...data, pages: data.pages.map(change) } : data,
  );
}

export function importProspects(body: { text: string; startRow: number; allowDuplicates: boolean }) {
  return unwrap(api.api.prospects.import.$post({ json: body }));
}

/** The tag shows at once; a failed save puts the previous lists back. */
export function useUpdateProspectTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tag }: { id: string; tag: Category }) =>
      unwrap(api.api.prospects[":id"].$patch({ param: { id: encodeURIComponent(id) }, json: { tag } })),
    onMutate: async ({ id, tag }) => {
      await client.cancelQueries({ queryKey: prospectKeys.all });
      const previous = client.getQueriesData<ProspectPages>({ queryKey: prospectKeys.all });
      editPages(client, (page) => ({ ...page, prospects: page.prospects.map((p) => (p.id === id ? { ...p, tag } : p)) }));
      return { previous };
    },
    onError: (_error, _vars, context) => {
      for (const [key, data] of context?.previous ?? []) client.setQueryData(key, data);
    },
  });
}

/** Deletes the prospect and its report; the lists drop it and count one fewer. */
export function useDeleteProspect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.api.prospects[":id"].$delete({ param: { id: encodeURIComponent(id) } })),
    onSuccess: (_res, id) =>
      editPages(client, (page) => {
        const had = page.prospects.some((p) => p.id === id);
        return {
          ...page,
          prospects: page.prospects.filter((p) => p.id !== id),
          total: had ? Math.max(0, page.total - 1) : page.total,
          all: had ? Math.max(0, page.all - 1) : page.all,
        };
      }),
  });
}

/** The current search as CSV text. */
export async function exportProspectsCsv(q: string): Promise<string> {
  const text = await unwrap(
    api.api.prospects["export.csv"].$get({ query: { q: q || undefined } }, withInit({ headers: { Accept: "text/csv" } })),
  );
  return String(text);
}
