// The route table (spec §2). Every page loads lazily, fetched when its route is first visited.
import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { AppLayout } from "./components/app-layout";
import { LoadingScreen, RequireAdmin, RequireAuth } from "./components/route-guards";
import { PLACEHOLDER_TOOL_PATHS } from "./lib/tools";
import RouteErrorPage from "./pages/route-error";

type PageModule = { default: ComponentType };

/** A page module, fetched when its route is first visited. */
function page(load: () => Promise<PageModule>): Pick<RouteObject, "lazy"> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

const toolPlaceholder = () => import("./pages/tool-placeholder");

export const routes: RouteObject[] = [
  {
    id: "root",
    ErrorBoundary: RouteErrorPage,
    // First load waits for the page chunk: the spec's 'Loading...' rather than a blank screen.
    HydrateFallback: () => <LoadingScreen fullscreen />,
    children: [
      // Public
      { index: true, ...page(() => import("./pages/landing")) },
      // /login and /signup send a signed-in visitor to /dashboard themselves (GuestOnly in the page).
      { path: "login", ...page(() => import("./pages/login")) },
      { path: "signup", ...page(() => import("./pages/signup")) },
      { path: "forgot-password", ...page(() => import("./pages/forgot-password")) },
      { path: "reset-password", ...page(() => import("./pages/reset-password")) },
      { path: "shared/reports/:id", ...page(() => import("./pages/shared-report")) },
      { path: "shared/chat/:id", ...page(() => import("./pages/shared-chat")) },
      { path: "shared/grids/:token", ...page(() => import("./pages/shared-grid")) },

      // Signed in
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: "dashboard", ...page(() => import("./pages/dashboard")) },
              { path: "tools/facebook-post-generator", ...page(() => import("./pages/facebook-post-generator")) },
              { path: "tools/gmb-post-generator", ...page(() => import("./pages/gmb-post-generator")) },
              { path: "tools/social-post-generator", ...page(() => import("./pages/social-post-generator")) },
              { path: "tools/video-script-generator", ...page(() => import("./pages/video-script-generator")) },
              { path: "tools/social-plan", ...page(() => import("./pages/social-plan")) },
              { path: "tools/google-results", ...page(() => import("./pages/google-results")) },
              { path: "tools/google-ads-analyzer", ...page(() => import("./pages/google-ads-analyzer")) },
              { path: "tools/gmb-post-scheduler", ...page(() => import("./pages/gmb-post-scheduler")) },
              { path: "integrations", ...page(() => import("./pages/integrations")) },
              { path: "tools/gbp-audit", ...page(() => import("./pages/gbp-audit")) },
              { path: "tools/local-search-audit", ...page(() => import("./pages/local-search-audit")) },
              { path: "tools/local-search-grid", ...page(() => import("./pages/local-search-grid")) },
              { path: "tools/local-rank-tracker", ...page(() => import("./pages/local-rank-tracker")) },
              { path: "tools/citation-tracker", ...page(() => import("./pages/citation-tracker")) },
              { path: "tools/ai-visibility", ...page(() => import("./pages/ai-visibility")) },
              { path: "tools/reviews", ...page(() => import("./pages/reviews")) },
              { path: "tools/local-rank-tracker/:id", ...page(() => import("./pages/rank-keyword")) },
              ...PLACEHOLDER_TOOL_PATHS.map((path) => ({ path: path.slice(1), ...page(toolPlaceholder) })),
              { path: "settings/personal", ...page(() => import("./pages/settings-personal")) },
              { path: "settings/account", ...page(() => import("./pages/settings-account")) },
              { path: "usage", ...page(() => import("./pages/usage")) },
              { path: "subscription", ...page(() => import("./pages/subscription")) },
              { path: "reports", ...page(() => import("./pages/reports")) },

              // Admin
              {
                element: <RequireAdmin />,
                children: [
                  { path: "admin/report-generator", ...page(() => import("./pages/admin-report-generator")) },
                  { path: "admin/report-generator/jobs", ...page(() => import("./pages/admin-report-jobs")) },
                  { path: "admin/users", ...page(() => import("./pages/admin-users")) },
                  { path: "admin/widgets", ...page(() => import("./pages/admin-widgets")) },
                  { path: "admin/brand", ...page(() => import("./pages/admin-brand")) },
                  { path: "admin/client-reports", ...page(() => import("./pages/admin-client-reports")) },
                  { path: "admin/setup", ...page(() => import("./pages/admin-setup")) },
                  { path: "admin/new-report", ...page(() => import("./pages/admin-new-report")) },
                  { path: "admin/reports/:id", ...page(() => import("./pages/admin-report")) },
                  { path: "admin/prospect-chat/:id", ...page(() => import("./pages/admin-prospect-chat")) },
                ],
              },

              // Any other path: the navigation only.
              { path: "*", ...page(() => import("./pages/empty-shell")) },
            ],
          },
        ],
      },
    ],
  },
];
