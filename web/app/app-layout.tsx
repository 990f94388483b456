// The signed-in frame: sidebar on desktop, top bar + drawer on phones, the page in <main>.
import { Suspense, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Outlet, useLocation } from "react-router";
import { dashboardPath, setScreenScope, useViewAs } from "../lib/view-as";
import { Brand } from "../features/brand";
import { ConfirmEmailBanner } from "../features/accounts";
import { MenuIcon } from "../design/icons";
import { NotificationBell } from "../features/notifications";
import { LoadingScreen } from "./loading-screen";
import { Sidebar } from "./sidebar";
import { SkipLink } from "../design/skip-link";

const SIDEBAR_ID = "app-sidebar";

export function AppLayout() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const viewAs = useViewAs();
  const queryClient = useQueryClient();
  const scope = useRef(viewAs?.viewingUserId ?? null);

  // Whose data the screens read changed (a view as someone started or ended, a client's screen opened from the clients
  // view or left): nothing read for the other one is shown, everything on screen is read again before it paints.
  useLayoutEffect(() => {
    setScreenScope(viewAs);
    const now = viewAs?.viewingUserId ?? null;
    if (scope.current === now) return;
    scope.current = now;
    void queryClient.resetQueries();
  }, [viewAs, queryClient]);

  // Any navigation closes the drawer.
  useEffect(() => setDrawerOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!drawerOpen) return;
    document.body.classList.add("drawer-open");
    document.querySelector<HTMLElement>(`#${SIDEBAR_ID} .sidebar-close`)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") closeDrawer();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.body.classList.remove("drawer-open");
      document.removeEventListener("keydown", onKey);
    };
  }, [drawerOpen]);

  function closeDrawer() {
    setDrawerOpen(false);
    menuButton.current?.focus();
  }

  return (
    <div className="app">
      <SkipLink to="#main" />
      <header className="topbar">
        <Brand to={dashboardPath(viewAs)} />
        <div className="topbar-actions">
          <NotificationBell />
          <button
            ref={menuButton}
            type="button"
            className="icon-button"
            aria-label="Open menu"
            aria-expanded={drawerOpen}
            aria-controls={SIDEBAR_ID}
            onClick={() => setDrawerOpen(true)}
          >
            <MenuIcon />
          </button>
        </div>
      </header>
      <Sidebar id={SIDEBAR_ID} open={drawerOpen} onClose={closeDrawer} onNavigate={() => setDrawerOpen(false)} />
      {drawerOpen ? <div className="drawer-backdrop" aria-hidden="true" onClick={closeDrawer} /> : null}
      <main id="main" className="main" tabIndex={-1}>
        <div className="main-inner">
          <ConfirmEmailBanner />
          {/* A page whose code is still on its way (an admin page once the admin check answers) keeps the frame. */}
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
    </div>
  );
}
