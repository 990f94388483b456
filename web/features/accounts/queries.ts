// Server state of the Account page: the user (email, pending new email, factors) from /auth/v1/user through auth-js,
// the recovery codes' status, and the writes: email, password, factors, recovery codes, other sessions, deleting the
// account (DELETE /api/account).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AuthError, Factor } from "@supabase/auth-js";
import { API_TIMEOUT_MS, ApiError, authedFetch } from "../../lib/api";
import { getAuthClient } from "../../lib/auth-client";
import { api, unwrap, withInit } from "../../lib/rpc";

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

// ——— two-factor recovery codes (/auth/v1/factors/recovery-codes: ours, auth-js has no call for them) ———

export const recoveryKeys = { status: ["account", "recovery-codes"] as const };

export type RecoveryCodeStatus = { total: number; remaining: number; created_at: string | null };
export type RecoveryCodeSet = { codes: string[]; created_at: string };

/** A GoTrue endpoint with this session's token; GoTrue's error body (`error_code`, `msg`) becomes an ApiError. */
async function gotrue<T>(path: string, json?: unknown, accessToken?: string | null): Promise<T> {
  const res = await authedFetch(`/auth/v1/factors/${path}`, {
    method: json === undefined ? "GET" : "POST",
    json,
    accessToken,
    viewAs: false,
    timeoutMs: API_TIMEOUT_MS,
  });
  const body = (await res.json().catch(() => null)) as (T & { error_code?: string; code?: string; msg?: string; message?: string }) | null;
  if (!res.ok) throw new ApiError(res.status, body?.error_code ?? String(body?.code ?? `http_${res.status}`), body?.msg ?? body?.message ?? "Something went wrong. Please try again.");
  return body as T;
}

export function recoveryCodesQuery() {
  return queryOptions({ queryKey: recoveryKeys.status, queryFn: () => gotrue<RecoveryCodeStatus>("recovery-codes") });
}

/** A new set (the old codes stop working); the answer is the only time the codes are shown. */
export function useCreateRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => gotrue<RecoveryCodeSet>("recovery-codes", {}),
    onSuccess: () => client.invalidateQueries({ queryKey: recoveryKeys.status }),
  });
}

/** Raises this password-only session to aal2 with a recovery code; auth-js then takes the new tokens as its session. */
export async function verifyRecoveryCode(code: string): Promise<void> {
  const auth = getAuthClient();
  const { data } = await auth.getSession();
  const tokens = await gotrue<{ access_token: string; refresh_token: string }>("recovery-codes/verify", { code }, data.session?.access_token ?? null);
  const { error } = await auth.setSession({ access_token: tokens.access_token, refresh_token: tokens.refresh_token });
  if (error) throw error;
}
