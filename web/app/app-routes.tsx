// The route table as rendered: 'Loading...' while a screen's code loads, the error page when one fails to load or
// render, and the chat widget kept in step with the address.
import { Suspense, useEffect, type ComponentType, type ReactNode } from "react";
import { useLocation, useRoutes } from "react-router";
import { syncChatWidget } from "../lib/chat-widget";
import { preloadRoutes, routes } from "../routes";
import { LoadingScreen, ServedPageTitle } from "./loading-screen";
import { RouteErrorBoundary } from "./route-error";

/** `Providers`: what every screen reads (the app's are web/app/app-providers.tsx, loaded lazily; tests pass fakes). */
export function AppRoutes({ Providers }: { Providers: ComponentType<{ children: ReactNode }> }) {
  const location = useLocation();
  // In render, not in an effect: a move to another address renders in a transition that commits only once the new
  // screen's code is here, so an effect would fetch the layout's code and then the page's, one after the other.
  preloadRoutes(location.pathname);
  useEffect(() => syncChatWidget(location.pathname), [location.pathname]);
  const element = useRoutes(routes);
  return (
    <RouteErrorBoundary location={location}>
      {/* The first screen waits for its code with the spec's 'Loading...' rather than a blank screen. Later moves keep
          the screen on show until the next one's code is here (the router moves in a transition). */}
      <Suspense fallback={<LoadingScreen fullscreen title={<ServedPageTitle />} />}>
        <Providers>{element}</Providers>
      </Suspense>
    </RouteErrorBoundary>
  );
}
