// Route guards (spec §2): 'Loading...' while auth loads, /login without a user, /dashboard for non-admins.
import type { ReactNode } from "react";
import { Navigate, Outlet } from "react-router";
import { useAuth } from "../lib/auth";
import { PageTitle } from "../features/brand";
import { LoadingScreen } from "./loading-screen";

// The screens' own 'Loading...' (it lives apart so that the app shell has it without the auth state).
export { LoadingScreen };

/** The full-screen 'Loading...' of a screen that waits for the auth state, titled with the brand as the app has it. */
export function AuthLoadingScreen() {
  return <LoadingScreen fullscreen title={<PageTitle />} />;
}

/** Signed-in routes; a session that still owes its two-factor code finishes signing in on /login first. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { loading, user, needsCode } = useAuth();
  if (loading) return <AuthLoadingScreen />;
  if (!user || needsCode) return <Navigate to="/login" replace />;
  return children ?? <Outlet />;
}

/**
 * /login and /signup: a signed-in visitor goes to /dashboard. `hold` keeps the page while it shows
 * its own outcome (sign-up signs the user in, then shows its success message for 2 seconds).
 */
export function GuestOnly({ children, hold = false }: { children?: ReactNode; hold?: boolean }) {
  const { loading, user, needsCode } = useAuth();
  if (hold) return children ?? <Outlet />;
  if (loading) return <AuthLoadingScreen />;
  if (user && !needsCode) {
    // The dashboard's code may still be on its way (right after sign-up): say so instead of a blank screen.
    return (
      <>
        <Navigate to="/dashboard" replace />
        <AuthLoadingScreen />
      </>
    );
  }
  return children ?? <Outlet />;
}
