// Users (admins): the list per search and filter, the admin toggle, and starting a view-as on the server.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminUserDto, UserFilter, UserListResponse } from "../../../worker/features/accounts/rules/admin-api";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

export const userKeys = {
  all: ["users"] as const,
  list: (q: string, filter: UserFilter) => ["users", "list", q, filter] as const,
};

export function userListQuery(q: string, filter: UserFilter) {
  return queryOptions({
    queryKey: userKeys.list(q, filter),
    queryFn: ({ signal }) =>
      unwrap(
        api.api.admin.users.$get(
          { query: { q: q || undefined, filter: filter === "all" ? undefined : filter } },
          withInit({ signal, timeoutMs: API_TIMEOUT_MS }),
        ),
      ),
  });
}

/** Flips a user's admin status; the listed row and the counts follow the server's answer. */
export function useSetUserAdmin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: AdminUserDto) =>
      unwrap(
        api.api.admin.users[":id"].$patch(
          { param: { id: encodeURIComponent(user.id) }, json: { is_admin: !user.is_admin } },
          withInit({ timeoutMs: API_TIMEOUT_MS }),
        ),
      ),
    onSuccess: ({ user: updated }, before) =>
      client.setQueriesData<UserListResponse>({ queryKey: userKeys.all }, (data) => {
        if (!data || !data.users.some((u) => u.id === updated.id)) return data;
        const delta = updated.is_admin === before.is_admin ? 0 : updated.is_admin ? 1 : -1;
        const counts = { ...data.counts, admins: data.counts.admins + delta, regular: data.counts.regular - delta };
        return { ...data, counts, users: data.users.map((u) => (u.id === updated.id ? updated : u)) };
      }),
  });
}

/** Starts a view on the server (checked and audited there); the admin's own identity, never a viewed one. */
export function useStartServerViewAs() {
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(api.api.admin["view-as"].$post({ json: { userId } }, withInit({ viewAs: false, timeoutMs: API_TIMEOUT_MS }))),
  });
}
