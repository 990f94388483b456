// Test helpers: a fake auth context (the boundary the screens read), a stubbed fetch, and the real route table.
import type { Session, User } from "@supabase/auth-js";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from "react-router";
import { vi } from "vitest";
import type { Profile } from "../../web/lib/api";
import { AuthContext, type AuthState } from "../../web/lib/auth";
import { createQueryClient } from "../../web/lib/query-client";
import { AppRoutes } from "../../web/app/app-routes";
// The guards and the signed-in layout load lazily in the app (outside the shell's initial JavaScript); loaded here with
// the route table, as before, so a screen's first findBy waits for the screen's own module only.
import "../../web/app/route-guards";
import "../../web/app/app-layout";
import "../../web/app/require-admin";
import type { BudgetState } from "../../worker/features/usage/rules/usage-stats";

export function fakeUser(email = "owner@plumbing.test", id = "user-1"): User {
  return {
    id,
    email,
    aud: "authenticated",
    role: "authenticated",
    app_metadata: {},
    user_metadata: {},
    created_at: "2026-01-01T00:00:00Z",
  } as User;
}

export function fakeProfile(user: User, isAdmin: boolean): Profile {
  return {
    id: user.id,
    email: user.email ?? null,
    is_admin: isAdmin,
    company_name: null,
    company_website: null,
    company_phone: null,
    company_location: null,
    company_street_address: null,
    company_email: null,
    company_category: null,
    company_description: null,
    company_logo_url: null,
    time_zone: null,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };
}

export function fakeAuth(over: Partial<AuthState> = {}): AuthState {
  return {
    loading: false,
    session: null,
    user: null,
    isAdmin: false,
    profile: null,
    profileLoading: false,
    needsCode: false,
    adminMfaMissing: false,
    emailUnconfirmed: false,
    adminAwaitsConfirmation: false,
    passwordRecovery: false,
    signOut: vi.fn(async () => {}),
    reloadProfile: vi.fn(),
    ...over,
  };
}

/** A signed-in auth state; `admin` sets the profile's is_admin. */
export function signedIn(opts: { admin?: boolean; email?: string } = {}): AuthState {
  const admin = opts.admin ?? false;
  const email = opts.email ?? (admin ? "admin@example.com" : "owner@plumbing.test");
  const user = fakeUser(email, admin ? "admin-1" : "user-1");
  const session = { access_token: "access-token", refresh_token: "r", expires_in: 3600, token_type: "bearer", user } as Session;
  return fakeAuth({ user, session, isAdmin: admin, profile: fakeProfile(user, admin) });
}

/**
 * The app's real route table in memory at `path`, with `auth` as the auth context. `location()` is where the app is now;
 * `navigate` moves it as a link would.
 */
export function renderApp(path: string, auth: AuthState) {
  const now: { location?: Location; navigate?: NavigateFunction } = {};
  function Where() {
    now.location = useLocation();
    now.navigate = useNavigate();
    return null;
  }
  const queryClient = createQueryClient();
  function Providers({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
      </QueryClientProvider>
    );
  }
  const utils = render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes Providers={Providers} />
      <Where />
    </MemoryRouter>,
  );
  return {
    location: () => now.location!,
    navigate: (to: string) => act(async () => void (await now.navigate!(to))),
    ...utils,
  };
}

/** One component inside a memory router at `path`, with `auth` as the auth context. */
export function renderAt(path: string, auth: AuthState, ui: ReactElement) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Replaces fetch; unmatched requests answer 404 in the API's error shape. */
export function stubFetch(handler: Handler) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    return handler(url, init);
  });
  vi.stubGlobal("fetch", fn);
  return fn;
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export const notFound = () => json({ error: { code: "not_found", message: "Not found" } }, 404);

/** A fetch that never answers until its signal aborts (for timeouts). */
export function hangingResponse(init: RequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    init.signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
  });
}

/** This month's allowance as GET /api/usage sends it: a Free user with nothing used, unless overridden. */
export function budgetFixture(overrides: Partial<BudgetState> = {}): BudgetState {
  return {
    monthly_usd: 1,
    plan: "Free",
    plan_usd: 1,
    override_usd: null,
    spent_usd: 0,
    reserved_usd: 0,
    used_usd: 0,
    left_usd: 1,
    month_start: "2026-11-01",
    resets_at: "2026-12-01T00:00:00.000Z",
    over: false,
    ...overrides,
  };
}
