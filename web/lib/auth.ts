// Auth state for the app: the session from auth-js events, admin status from GET /api/profile, sign-out.
import type { AuthChangeEvent, Session, User } from "@supabase/auth-js";
import { useQuery } from "@tanstack/react-query";
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { getAuthClient } from "./auth-client";
import { ownProfileQuery } from "./own-profile";
import type { Profile } from "./api";
import { clearAdminEntries } from "./view-as";
import { STAFF_MARKER_KEY } from "../../worker/features/reports/rules/event-names";

export type AuthState = {
  /** True until auth-js has reported the initial session. */
  loading: boolean;
  session: Session | null;
  user: User | null;
  /** From the signed-in user's own profile; false when unauthenticated, on failure or on timeout. */
  isAdmin: boolean;
  /** The signed-in user's own profile (never the viewed user's). */
  profile: Profile | null;
  /** True while the profile (and so admin status) is being read. */
  profileLoading: boolean;
  /** True after an emailed recovery link signed the user in (PASSWORD_RECOVERY). */
  passwordRecovery: boolean;
  /** The account has two-factor sign-in and this session has not verified a code yet (aal1 of aal2). */
  needsCode: boolean;
  /** An admin whose session lacks the two-factor step the server asks admins for (REQUIRE_ADMIN_MFA). */
  adminMfaMissing: boolean;
  /** The address is not confirmed by its emailed link yet, and whether admin rights (ADMIN_EMAILS) wait on it. */
  emailUnconfirmed: boolean;
  adminAwaitsConfirmation: boolean;
  signOut: () => Promise<void>;
  reloadProfile: () => void;
};

/** The access token's assurance level, read the way auth-js's getAuthenticatorAssuranceLevel reads it (no call). */
export function sessionAal(session: Session | null): string | null {
  const payload = session?.access_token.split(".")[1];
  if (!payload) return null;
  try {
    return (JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { aal?: string }).aal ?? null;
  } catch {
    return null;
  }
}

/** True when the user has a verified factor and the session has not used it: the code must come next. */
export function sessionNeedsCode(session: Session | null): boolean {
  if (!session) return false;
  const verified = (session.user.factors ?? []).some((f) => f.status === "verified");
  return verified && sessionAal(session) !== "aal2";
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}

const HANDLED_EVENTS = new Set<AuthChangeEvent>([
  "INITIAL_SESSION",
  "SIGNED_IN",
  "SIGNED_OUT",
  "TOKEN_REFRESHED",
  "USER_UPDATED",
  "PASSWORD_RECOVERY",
  "MFA_CHALLENGE_VERIFIED",
]);

/** Signs out (401/403/404 from the service are ignored by auth-js) and clears the local admin entries. */
export async function signOutEverywhere(): Promise<void> {
  clearAdminEntries();
  const client = getAuthClient();
  const { error } = await client.signOut();
  if (error && ![401, 403, 404].includes(error.status ?? 0)) {
    // The server could not be told; still end the session in this browser.
    await client.signOut({ scope: "local" });
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [loading, setLoading] = useState(true);
  const [session, setSession] = useState<Session | null>(null);
  const [passwordRecovery, setPasswordRecovery] = useState(false);
  const tokenRef = useRef<string | null>(null);

  useEffect(() => {
    const { data } = getAuthClient().onAuthStateChange((event, next) => {
      if (!HANDLED_EVENTS.has(event)) return;
      tokenRef.current = next?.access_token ?? null;
      setSession(next);
      if (event === "PASSWORD_RECOVERY") setPasswordRecovery(true);
      if (event === "SIGNED_OUT") setPasswordRecovery(false);
      setLoading(false);
    });
    return () => data.subscription.unsubscribe();
  }, []);

  const userId = session?.user.id ?? null;
  // Shared-report views from this browser are the agency's own from now on (issue 10).
  useEffect(() => {
    if (userId) markStaffBrowser();
  }, [userId]);
  // Spec §4: on timeout or failure the user is treated as not admin, silently.
  const needsCode = sessionNeedsCode(session);
  const aal = sessionAal(session);
  // Until the code is verified the API answers mfa_required; the profile is read once the session may.
  const profileQuery = useQuery({ ...ownProfileQuery(userId ?? "", () => tokenRef.current, aal), enabled: userId !== null && !needsCode });
  const refetchProfile = profileQuery.refetch;

  const signOut = useCallback(async () => {
    await signOutEverywhere();
  }, []);
  const reloadProfile = useCallback(() => void refetchProfile(), [refetchProfile]);

  const value = useMemo<AuthState>(() => {
    const profile: Profile | null = (userId && profileQuery.data?.profile) || null;
    return {
      loading,
      session,
      user: session?.user ?? null,
      isAdmin: Boolean(profile?.is_admin),
      profile,
      profileLoading: Boolean(userId) && !needsCode && profileQuery.isPending,
      passwordRecovery,
      needsCode,
      adminMfaMissing: Boolean(profile?.is_admin && profileQuery.data?.adminMfaMissing),
      emailUnconfirmed: Boolean(profile && profileQuery.data?.emailUnconfirmed),
      adminAwaitsConfirmation: Boolean(profile && profileQuery.data?.adminAwaitsConfirmation),
      signOut,
      reloadProfile,
    };
  }, [loading, session, userId, profileQuery.data, profileQuery.isPending, passwordRecovery, needsCode, signOut, reloadProfile]);

  return createElement(AuthContext.Provider, { value }, children);
}

/** Marks this browser as one of the app's users, so the shared report page does not count its views. */
export function markStaffBrowser() {
  try {
    localStorage.setItem(STAFF_MARKER_KEY, "1");
  } catch {
    /* storage unavailable: the view may be counted, nothing else breaks */
  }
}
