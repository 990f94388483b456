// Route guards (spec §2): 'Loading...' while auth loads, /login without a user, /dashboard for non-admins.
import type { ReactNode } from "react";
import { Navigate, Outlet } from "react-router";
import { useAuth } from "../lib/auth";
import { PageTitle } from "../features/brand";

export function LoadingScreen({ fullscreen = false }: { fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? "loading-screen is-fullscreen" : "loading-screen"} role="status" aria-live="polite">
      {/* Full screen, nothing else is shown: the page's own <title> is not there yet. */}
      {fullscreen ? <PageTitle /> : null}
      <span className="spinner" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}

/** Signed-in routes; a session that still owes its two-factor code finishes signing in on /login first. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { loading, user, needsCode } = useAuth();
  if (loading) return <LoadingScreen fullscreen />;
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
  if (loading) return <LoadingScreen fullscreen />;
  if (user && !needsCode) {
    // The dashboard's code may still be on its way (right after sign-up): say so instead of a blank screen.
    return (
      <>
        <Navigate to="/dashboard" replace />
        <LoadingScreen fullscreen />
      </>
    );
  }
  return children ?? <Outlet />;
}
