// The route table (spec §2). Every page loads lazily, fetched when its route is first visited; so do the guards and the
// signed-in layout (sidebar, notification bell, banners): the app shell itself is the router, this table and the
// loading and error screens (scripts/shell-size.ts measures it). web/app/app-routes.tsx renders the table.
import { lazy, type ComponentType } from "react";
import { matchRoutes, type RouteObject } from "react-router";
import { PLACEHOLDER_TOOL_PATHS } from "./lib/tool-placeholders";

type Module = { default: ComponentType };
type Preload = { load: () => Promise<Module> };

/** A route whose component is fetched when the route is first visited (its `handle` can fetch it earlier). */
function page(load: () => Promise<Module>): Pick<RouteObject, "Component" | "handle"> {
  return { Component: lazy(load), handle: { load } satisfies Preload };
}

const toolPlaceholder = page(() => import("./features/tools/pages/tool-placeholder"));

export const routes: RouteObject[] = [
  // Public
  { index: true, ...page(() => import("./features/landing/pages/landing")) },
  // /login and /signup send a signed-in visitor to /dashboard themselves (GuestOnly in the page).
  { path: "login", ...page(() => import("./features/accounts/pages/login")) },
  { path: "signup", ...page(() => import("./features/accounts/pages/signup")) },
  { path: "forgot-password", ...page(() => import("./features/accounts/pages/forgot-password")) },
  { path: "reset-password", ...page(() => import("./features/accounts/pages/reset-password")) },
  { path: "shared/reports/:id", ...page(() => import("./features/reports/pages/shared-report")) },
  { path: "shared/chat/:id", ...page(() => import("./features/chat/pages/shared-chat")) },
  { path: "shared/grids/:token", ...page(() => import("./features/rank/pages/shared-grid")) },

  // Signed in
  {
    ...page(async () => ({ default: (await import("./app/route-guards")).RequireAuth })),
    children: [
      {
        ...page(async () => ({ default: (await import("./app/app-layout")).AppLayout })),
        children: [
          { path: "dashboard", ...page(() => import("./features/dashboard/pages/dashboard")) },
          { path: "tools/facebook-post-generator", ...page(() => import("./features/content/pages/facebook-post-generator")) },
          { path: "tools/gmb-post-generator", ...page(() => import("./features/content/pages/gmb-post-generator")) },
          { path: "tools/social-post-generator", ...page(() => import("./features/content/pages/social-post-generator")) },
          { path: "tools/video-script-generator", ...page(() => import("./features/content/pages/video-script-generator")) },
          { path: "tools/social-plan", ...page(() => import("./features/content/pages/social-plan")) },
          { path: "tools/google-results", ...page(() => import("./features/tools/pages/google-results")) },
          { path: "tools/google-ads-analyzer", ...page(() => import("./features/tools/pages/google-ads-analyzer")) },
          { path: "tools/gmb-post-scheduler", ...page(() => import("./features/content/pages/gmb-post-scheduler")) },
          { path: "integrations", ...page(() => import("./features/integrations/pages/integrations")) },
          { path: "tools/gbp-audit", ...page(() => import("./features/audits/pages/gbp-audit")) },
          { path: "tools/local-search-audit", ...page(() => import("./features/audits/pages/local-search-audit")) },
          { path: "tools/local-search-grid", ...page(() => import("./features/rank/pages/local-search-grid")) },
          { path: "tools/local-rank-tracker", ...page(() => import("./features/rank/pages/local-rank-tracker")) },
          { path: "tools/citation-tracker", ...page(() => import("./features/citations/pages/citation-tracker")) },
          { path: "tools/ai-visibility", ...page(() => import("./features/ai-visibility/pages/ai-visibility")) },
          { path: "tools/reviews", ...page(() => import("./features/reviews/pages/reviews")) },
          { path: "tools/local-rank-tracker/:id", ...page(() => import("./features/rank/pages/rank-keyword")) },
          ...PLACEHOLDER_TOOL_PATHS.map((path) => ({ path: path.slice(1), ...toolPlaceholder })),
          { path: "settings/personal", ...page(() => import("./features/profile/pages/settings-personal")) },
          { path: "settings/account", ...page(() => import("./features/accounts/pages/settings-account")) },
          { path: "usage", ...page(() => import("./features/usage/pages/usage")) },
          { path: "subscription", ...page(() => import("./features/billing/pages/subscription")) },
          { path: "reports", ...page(() => import("./features/client-reports/pages/reports")) },

          // Admin
          {
            ...page(async () => ({ default: (await import("./app/require-admin")).RequireAdmin })),
            children: [
              { path: "admin/attention", ...page(() => import("./features/command-center/pages/admin-attention")) },
              { path: "admin/clients", ...page(() => import("./features/command-center/pages/admin-clients")) },
              { path: "admin/pipeline", ...page(() => import("./features/pipeline/pages/admin-pipeline")) },
              { path: "admin/report-generator", ...page(() => import("./features/prospects/pages/admin-report-generator")) },
              { path: "admin/report-generator/jobs", ...page(() => import("./features/reports/pages/admin-report-jobs")) },
              { path: "admin/users", ...page(() => import("./features/accounts/pages/admin-users")) },
              { path: "admin/widgets", ...page(() => import("./features/widgets/pages/admin-widgets")) },
              { path: "admin/brand", ...page(() => import("./features/brand/pages/admin-brand")) },
              { path: "admin/client-reports", ...page(() => import("./features/client-reports/pages/admin-client-reports")) },
              { path: "admin/setup", ...page(() => import("./features/setup/pages/admin-setup")) },
              { path: "admin/new-report", ...page(() => import("./features/reports/pages/admin-new-report")) },
              { path: "admin/reports/:id", ...page(() => import("./features/reports/pages/admin-report")) },
              { path: "admin/prospect-chat/:id", ...page(() => import("./features/chat/pages/admin-prospect-chat")) },
            ],
          },

          // Any other path: the navigation only.
          { path: "*", ...page(() => import("./app/empty-shell")) },
        ],
      },
    ],
  },
];

/**
 * Starts fetching the code of every route that matches `pathname` at once: the layout, the admin guard and the page
 * load side by side, not each after the one above it has rendered.
 */
export function preloadRoutes(pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const loading = (route.handle as Preload | undefined)?.load();
    if (!loading) continue;
    preloading.add(loading);
    void loading.finally(() => preloading.delete(loading)).catch(() => undefined);
  }
}

const preloading = new Set<Promise<Module>>();

/** Resolves once every screen's code asked for so far has arrived (or failed): the web tests wait on it before ending. */
export async function preloadsSettled(): Promise<void> {
  while (preloading.size) await Promise.allSettled([...preloading]);
}
