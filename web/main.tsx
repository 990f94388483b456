// Entry point: styles and the router. The app's server state and auth load with the first screen (app-providers.tsx).
import "./lib/zod-config";
import { lazy, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppRoutes } from "./app/app-routes";
import "./design/styles.css";
import "./design/components.css";

const AppProviders = lazy(() => import("./app/app-providers"));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    {/* The declarative router: the app has no loaders or actions, so the data router's code would be dead weight. */}
    <BrowserRouter>
      <AppRoutes Providers={AppProviders} />
    </BrowserRouter>
  </StrictMode>,
);
