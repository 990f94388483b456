// Auth state for the app: the session from auth-js events, admin status from GET /api/profile, sign-out.
import type { AuthChangeEvent, Session, User } from "@supabase/auth-js";
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { API_TIMEOUT_MS, apiFetch, type Profile, type ProfileResponse } from "./api";
import { clearAdminEntries } from "./view-as";
import { STAFF_MARKER_KEY } from "../../worker/domain/report-event-names";


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
  signOut: () => Promise<void>;
  reloadProfile: () => void;
};

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
  const client = (await loadAuthClient()).getAuthClient();
  const { error } = await client.signOut();
  if (error && ![401, 403, 404].includes(error.status ?? 0)) {
    // The server could not be told; still end the session in this browser.
    await client.signOut({ scope: "local" });
  }
}

/** auth-js is a third of the script: it loads beside the first page instead of in front of it. */
export function loadAuthClient() {
  return import("./auth-client");
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [loading, setLoading] = useState(true);
  const [session, setSession] = useState<Session | null>(null);
  const [passwordRecovery, setPasswordRecovery] = useState(false);
  // The profile read for `userId` (settled: loaded, failed or timed out).
  const [settled, setSettled] = useState<{ userId: string | null; profile: Profile | null }>({ userId: null, profile: null });
  const [profileVersion, setProfileVersion] = useState(0);
  const tokenRef = useRef<string | null>(null);

  useEffect(() => {
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    void loadAuthClient().then(({ getAuthClient }) => {
      if (cancelled) return;
      const { data } = getAuthClient().onAuthStateChange((event, next) => {
        if (!HANDLED_EVENTS.has(event)) return;
        tokenRef.current = next?.access_token ?? null;
        setSession(next);
        if (event === "PASSWORD_RECOVERY") setPasswordRecovery(true);
        if (event === "SIGNED_OUT") setPasswordRecovery(false);
        setLoading(false);
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, []);

  const userId = session?.user.id ?? null;
  // Shared-report views from this browser are the agency's own from now on (issue 10).
  useEffect(() => {
    if (userId) markStaffBrowser();
  }, [userId]);
  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    apiFetch<ProfileResponse>("/api/profile", {
      accessToken: tokenRef.current,
      viewAs: false,
      timeoutMs: API_TIMEOUT_MS,
      signal: controller.signal,
    })
      .then((res) => setSettled({ userId, profile: res.profile }))
      // Spec §4: on timeout or failure the user is treated as not admin, silently.
      .catch(() => {
        if (!controller.signal.aborted) setSettled({ userId, profile: null });
      });
    return () => controller.abort();
  }, [userId, profileVersion]);

  const signOut = useCallback(async () => {
    await signOutEverywhere();
  }, []);
  const reloadProfile = useCallback(() => setProfileVersion((v) => v + 1), []);

  const value = useMemo<AuthState>(() => {
    const profile = userId && settled.userId === userId ? settled.profile : null;
    return {
      loading,
      session,
      user: session?.user ?? null,
      isAdmin: Boolean(profile?.is_admin),
      profile,
      profileLoading: Boolean(userId) && settled.userId !== userId,
      passwordRecovery,
      signOut,
      reloadProfile,
    };
  }, [loading, session, userId, settled, passwordRecovery, signOut, reloadProfile]);

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
