// Server state of the Account page: the user (email, pending new email, factors) from /auth/v1/user through auth-js,
// and the writes: email, password, factors, other sessions, deleting the account (DELETE /api/account).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AuthError, Factor } from "@supabase/auth-js";
import { API_TIMEOUT_MS } from "../lib/api";
import { getAuthClient } from "../lib/auth-client";
import { api, unwrap, withInit } from "../lib/rpc";

export const accountKeys = { user: ["account", "user"] as const };

/** auth-js answers `{data, error}` (data empty on error); the page's queries want a throw. */
function ok<T>(result: { data: T; error: null } | { data: unknown; error: AuthError }): T {
  if (result.error) throw result.error;
  return result.data as T;
}

export type AccountUser = { email: string; newEmail: string | null; factors: Factor[] };

export function accountUserQuery() {
  return queryOptions({
    queryKey: accountKeys.user,
    queryFn: async (): Promise<AccountUser> => {
      const { user } = ok(await getAuthClient().getUser());
      return {
        email: user.email ?? "",
        newEmail: (user as { new_email?: string }).new_email ?? null,
        factors: (user.factors ?? []).filter((f) => f.factor_type === "totp"),
      };
    },
  });
}

export function useRefreshUser() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: accountKeys.user });
}

export function useChangeEmail() {
  const refresh = useRefreshUser();
  return useMutation({
    mutationFn: async (input: { email: string; currentPassword: string }) =>
      ok(await getAuthClient().updateUser({ email: input.email, current_password: input.currentPassword })),
    onSuccess: refresh,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: async (input: { password: string; currentPassword: string }) =>
      ok(await getAuthClient().updateUser({ password: input.password, current_password: input.currentPassword })),
  });
}

/** Starts an enrolment: a new unverified factor with its QR code and secret. */
export function useEnrollFactor() {
  return useMutation({
    mutationFn: async (friendlyName: string) => {
      const data = ok(await getAuthClient().mfa.enroll({ factorType: "totp", friendlyName: friendlyName || undefined }));
      if (!data || data.type !== "totp") throw new Error("Unexpected factor type.");
      return data;
    },
  });
}

export function useRemoveFactor() {
  const refresh = useRefreshUser();
  return useMutation({
    mutationFn: async (factorId: string) => ok(await getAuthClient().mfa.unenroll({ factorId })),
    onSuccess: refresh,
  });
}

export function useSignOutOthers() {
  return useMutation({
    mutationFn: async () => {
      const { error } = await getAuthClient().signOut({ scope: "others" });
      if (error) throw error;
    },
  });
}

/** DELETE /api/account with the password; then this browser's session ends too. */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (password: string) => {
      await unwrap(api.api.account.$delete({ json: { password } }, withInit({ timeoutMs: API_TIMEOUT_MS, viewAs: false })));
      await getAuthClient().signOut({ scope: "local" });
      client.clear();
    },
  });
}
