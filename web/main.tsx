// Entry point: styles, the server-state cache, the auth provider and the router.
import "./lib/zod-config";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { AuthProvider } from "./lib/auth";
import { syncChatWidget } from "./lib/chat-widget";
import { queryClient } from "./lib/query-client";
import { routes } from "./routes";
import "./design/styles.css";
import "./design/components.css";

const router = createBrowserRouter(routes);
syncChatWidget(router.state.location.pathname);
router.subscribe((state) => syncChatWidget(state.location.pathname));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
