// The admin routes' guard, in its own module so the admin walk-through (and its icons) loads with the first admin
// screen, not with the app shell.
import type { ReactNode } from "react";
import { Navigate, Outlet } from "react-router";
import { useAuth } from "../lib/auth";
import { AdminMfaRequired } from "./admin-access-required";
import { LoadingScreen } from "./loading-screen";

/**
 * Admin routes: non-admins (including on a failed or timed-out admin check) go to /dashboard; an admin the
 * server asks for two-factor sign-in (REQUIRE_ADMIN_MFA) is walked through setting it up.
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { loading, user, isAdmin, profileLoading, adminMfaMissing } = useAuth();
  if (loading || (user && profileLoading)) return <LoadingScreen />;
  if (!user) return <Navigate to="/login" replace />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  if (adminMfaMissing) return <AdminMfaRequired />;
  return children ?? <Outlet />;
}
