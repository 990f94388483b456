// AuthProvider: session from auth-js events, admin status from GET /api/profile (10 s, silent failure), sign-out.
import type { Session } from "@supabase/auth-js";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AuthProvider, signOutEverywhere, useAuth } from "../../web/lib/auth";
import { createQueryClient } from "../../web/lib/query-client";
import { RETURN_SESSION_KEY, VIEW_AS_KEY, startViewAs } from "../../web/lib/view-as";
import { fakeProfile, fakeUser, hangingResponse, json, stubFetch } from "./helpers";

// The boundary: the auth-js client. Everything above it is the code under test.
const auth = vi.hoisted(() => {
  type Listener = (event: string, session: unknown) => void;
  const state = { listeners: [] as Listener[], initial: null as unknown };
  const client = {
    onAuthStateChange: (cb: Listener) => {
      state.listeners.push(cb);
      queueMicrotask(() => cb("INITIAL_SESSION", state.initial));
      return { data: { subscription: { unsubscribe: () => (state.listeners = state.listeners.filter((l) => l !== cb)) } } };
    },
    signOut: (() => Promise.resolve({ error: null })) as (opts?: unknown) => Promise<{ error: unknown }>,
    getSession: () => Promise.resolve({ data: { session: state.initial }, error: null }),
  };
  return { state, client, emit: (event: string, session: unknown) => state.listeners.forEach((l) => l(event, session)) };
});
vi.mock("../../web/lib/auth-client", () => ({
  getAuthClient: () => auth.client,
  linkError: () => null,
  openedFromRecoveryLink: () => false,
}));

function session(email = "admin@example.com"): Session {
  const user = fakeUser(email, "admin-1");
  return { access_token: "tok-1", refresh_token: "r", expires_in: 3600, token_type: "bearer", user } as Session;
}

function Probe() {
  const a = useAuth();
  return (
    <output data-testid="state">
      {JSON.stringify({
        loading: a.loading,
        email: a.user?.email ?? null,
        isAdmin: a.isAdmin,
        profileLoading: a.profileLoading,
        recovery: a.passwordRecovery,
      })}
    </output>
  );
}

const state = () => JSON.parse(screen.getByTestId("state").textContent!) as Record<string, unknown>;

function renderProvider() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider>
        <Probe />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  auth.state.listeners = [];
  auth.state.initial = null;
});

describe("AuthProvider", () => {
  it("is loading until the initial session, then unauthenticated and not admin", async () => {
    const fetch = stubFetch(() => json({}));
    renderProvider();
    expect(state().loading).toBe(true);
    await waitFor(() => expect(state().loading).toBe(false));
    expect(state()).toMatchObject({ email: null, isAdmin: false, profileLoading: false });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("reads admin status from the user's own profile (never the viewed user's)", async () => {
    const s = session();
    auth.state.initial = s;
    startViewAs({ viewingUserId: "user-9", viewingUserEmail: "x@y.z", viewingUserDetails: {} });
    const fetch = stubFetch(() => json({ profile: fakeProfile(s.user, true), viewingAs: false }));
    renderProvider();
    await waitFor(() => expect(state().isAdmin).toBe(true));
    expect(state()).toMatchObject({ email: "admin@example.com", profileLoading: false });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/profile");
    const headers = new Headers(init.headers);
    expect(headers.get("Authorization")).toBe("Bearer tok-1");
    expect(headers.get("X-View-As")).toBeNull();
  });

  it("treats a failed profile read as not admin, silently", async () => {
    auth.state.initial = session();
    stubFetch(() => json({ error: { code: "internal", message: "boom" } }, 500));
    renderProvider();
    // profileLoading is false on the first render too (no session read yet): wait for the session as well.
    await waitFor(() => expect(state()).toMatchObject({ loading: false, profileLoading: false }));
    expect(state()).toMatchObject({ loading: false, isAdmin: false, email: "admin@example.com" });
  });

  it("treats a profile read that takes 10 seconds as not admin", async () => {
    vi.useFakeTimers();
    auth.state.initial = session();
    const fetch = stubFetch((_url, init) => hangingResponse(init));
    renderProvider();
    // React schedules the session update on the (fake) clock too: step until the profile request is out.
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledOnce(), { interval: 1 });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_900);
    });
    expect(state()).toMatchObject({ profileLoading: true, isAdmin: false });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(state()).toMatchObject({ profileLoading: false, isAdmin: false });
  });

  it("follows sign-in, password recovery and sign-out events", async () => {
    const s = session("owner@plumbing.test");
    stubFetch(() => json({ profile: fakeProfile(s.user, false), viewingAs: false }));
    renderProvider();
    await waitFor(() => expect(state().loading).toBe(false));
    act(() => auth.emit("SIGNED_IN", s));
    await waitFor(() => expect(state()).toMatchObject({ email: "owner@plumbing.test", profileLoading: false }));
    expect(state().isAdmin).toBe(false);
    act(() => auth.emit("PASSWORD_RECOVERY", s));
    expect(state().recovery).toBe(true);
    act(() => auth.emit("SIGNED_OUT", null));
    expect(state()).toMatchObject({ email: null, isAdmin: false, recovery: false });
  });
});

describe("signOutEverywhere", () => {
  it("signs out through auth-js and clears both local admin entries", async () => {
    const signOut = vi.spyOn(auth.client, "signOut");
    startViewAs({ viewingUserId: "user-9", viewingUserEmail: "x@y.z", viewingUserDetails: {} });
    localStorage.setItem(RETURN_SESSION_KEY, "{}");
    await signOutEverywhere();
    expect(signOut).toHaveBeenCalledOnce();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
    expect(localStorage.getItem(RETURN_SESSION_KEY)).toBeNull();
  });

  it("ignores 401, 403 and 404 from the service", async () => {
    for (const status of [401, 403, 404]) {
      const signOut = vi.spyOn(auth.client, "signOut").mockResolvedValue({ error: { status, message: "gone" } });
      await expect(signOutEverywhere()).resolves.toBeUndefined();
      expect(signOut).toHaveBeenCalledTimes(1);
      signOut.mockRestore();
    }
  });

  it("ends the local session when the service cannot be told", async () => {
    const signOut = vi
      .spyOn(auth.client, "signOut")
      .mockResolvedValueOnce({ error: { status: 503, message: "unavailable" } })
      .mockResolvedValueOnce({ error: null });
    await signOutEverywhere();
    expect(signOut).toHaveBeenLastCalledWith({ scope: "local" });
  });
});
