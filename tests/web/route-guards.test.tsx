// Route guards: 'Loading...' while auth loads, /login without a user, admin-only routes, guest-only pages.
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeAuth, json, notFound, renderApp, signedIn, stubFetch } from "./helpers";
import { DASHBOARD_GROUPS, DASHBOARD_TOOLS } from "./dashboard-tools";

describe("route guards", () => {
  it("shows 'Loading...' while the auth state is loading", async () => {
    renderApp("/dashboard", fakeAuth({ loading: true }));
    expect(await screen.findByText("Loading...")).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Main" })).toBeNull();
  });

  it("sends a visitor without a user from a signed-in page to /login", async () => {
    const { location } = renderApp("/dashboard", fakeAuth());
    expect(await screen.findByRole("heading", { name: "Welcome back" })).toBeTruthy();
    expect(location().pathname).toBe("/login");
  });

  it("sends a visitor without a user from an unknown path to /login", async () => {
    const { location } = renderApp("/some/where", fakeAuth());
    await waitFor(() => expect(location().pathname).toBe("/login"));
  });

  it("sends a visitor without a user from an admin page to /login", async () => {
    const { location } = renderApp("/admin/users", fakeAuth());
    await waitFor(() => expect(location().pathname).toBe("/login"));
  });

  it("sends a visitor without a user from /reports to /login, and a non-admin from /admin/client-reports to /dashboard (issue 30)", async () => {
    const out = renderApp("/reports", fakeAuth());
    await waitFor(() => expect(out.location().pathname).toBe("/login"));
    out.unmount();
    const { location } = renderApp("/admin/client-reports", signedIn());
    expect(await screen.findByText("Content Tools")).toBeTruthy();
    expect(location().pathname).toBe("/dashboard");
  });

  it("lets a signed-in user into /reports and an admin into /admin/client-reports (issue 30)", async () => {
    stubFetch(() => notFound());
    const user = renderApp("/reports", signedIn());
    expect(await screen.findByRole("heading", { level: 1, name: "Monthly Reports" }, { timeout: 5000 })).toBeTruthy();
    expect(user.location().pathname).toBe("/reports");
    user.unmount();
    const admin = renderApp("/admin/client-reports", signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { level: 1, name: "Client Reports" }, { timeout: 5000 })).toBeTruthy();
    expect(admin.location().pathname).toBe("/admin/client-reports");
  });

  it("redirects a non-admin from an admin page to /dashboard", async () => {
    const { location } = renderApp("/admin/users", signedIn());
    expect(await screen.findByText("Content Tools")).toBeTruthy();
    expect(location().pathname).toBe("/dashboard");
  });

  it("walks an admin without two-factor sign-in (REQUIRE_ADMIN_MFA) to the Account page instead of the admin screen", async () => {
    stubFetch(() => notFound());
    const { location } = renderApp("/admin/users", { ...signedIn({ admin: true }), adminMfaMissing: true });
    expect(await screen.findByRole("heading", { name: "Set up two-factor sign-in" })).toBeTruthy();
    expect(location().pathname).toBe("/admin/users");
    expect(screen.getByRole("link", { name: "Go to Account" }).getAttribute("href")).toBe("/settings/account#two-factor");
  });

  it("sends a session that still owes its two-factor code from a signed-in page to the code prompt on /login", async () => {
    const { location } = renderApp("/dashboard", { ...signedIn(), needsCode: true });
    expect(await screen.findByRole("heading", { name: "Two-factor sign-in" })).toBeTruthy();
    expect(location().pathname).toBe("/login");
  });

  it("waits for the admin check before deciding ('Loading...')", async () => {
    const auth = { ...signedIn({ admin: true }), isAdmin: false, profileLoading: true };
    const { location } = renderApp("/admin/report-generator", auth);
    expect(await screen.findByText("Loading...")).toBeTruthy();
    expect(location().pathname).toBe("/admin/report-generator");
  });

  it("lets an admin into the admin pages", async () => {
    stubFetch(() => notFound());
    const { location } = renderApp("/admin/users", signedIn({ admin: true }));
    expect(await screen.findByRole("heading", { name: "Users Management" })).toBeTruthy();
    expect(location().pathname).toBe("/admin/users");
  });

  it("redirects a signed-in user from /login to /dashboard", async () => {
    const { location } = renderApp("/login", signedIn());
    await waitFor(() => expect(location().pathname).toBe("/dashboard"));
    expect(await screen.findByText("Content Tools")).toBeTruthy();
  });

  it("redirects a signed-in user from /signup to /dashboard", async () => {
    const { location } = renderApp("/signup", signedIn());
    await waitFor(() => expect(location().pathname).toBe("/dashboard"));
  });

  it("shows the sign-in form to a visitor without a user", async () => {
    renderApp("/login", fakeAuth());
    expect(await screen.findByLabelText("Email")).toHaveProperty("type", "email");
    expect(screen.getByRole("link", { name: "Forgot your password?" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe("/signup");
  });

  it("keeps public pages public", async () => {
    renderApp("/", fakeAuth());
    const cta = await screen.findAllByRole("link", { name: "Try Our AI Tools Free" });
    expect(cta[0].getAttribute("href")).toBe("/signup");
  });

  it.each(["/shared/reports/abc", "/shared/chat/abc"])("does not ask for sign-in on %s", async (path) => {
    stubFetch(() => notFound());
    const { location } = renderApp(path, fakeAuth());
    // The page's code has loaded (the full-screen 'Loading...' is gone), and it stays where it is.
    await waitFor(() => expect(document.querySelector(".loading-screen.is-fullscreen")).toBeNull());
    await new Promise((r) => setTimeout(r, 50));
    expect(location().pathname).toBe(path);
    expect(screen.queryByRole("heading", { name: "Welcome back" })).toBeNull();
  });

  it("has no placeholder tool route left: the Citation Tracker (the last one, issue 27) is the tool itself", async () => {
    renderApp("/tools/citation-tracker", signedIn());
    expect(await screen.findByRole("heading", { level: 1, name: "Citation Tracker" })).toBeTruthy();
    expect(screen.queryByText("This tool will be implemented soon")).toBeNull();
  });

  it("shows the navigation only on any other signed-in path", async () => {
    renderApp("/no/such/page", signedIn());
    expect(await screen.findByRole("navigation", { name: "Main" })).toBeTruthy();
    expect(screen.queryByRole("heading", { level: 1 })).toBeNull();
  });
});

describe("dashboard", () => {
  it("shows the stat cards, then every tool in its group once none of the spec's tools is still to come", async () => {
    renderApp("/dashboard", signedIn());
    expect(await screen.findByRole("heading", { name: /Content Tools/ })).toBeTruthy();
    expect(screen.getByText("Tools ready to use").previousElementSibling!.textContent).toBe("15");
    expect(screen.queryByText("Tools coming soon")).toBeNull();
    expect(screen.getByText("500+")).toBeTruthy();
    expect(screen.getByText("10+ hrs")).toBeTruthy();
    const main = screen.getByRole("main");
    const headings = within(main).getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(DASHBOARD_GROUPS);
    const links = within(main).getAllByRole("link", { name: /Open tool/ });
    expect(links.map((a) => a.closest("article")!.querySelector("h3")!.textContent)).toEqual(DASHBOARD_TOOLS);
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "/tools/gmb-post-scheduler",
      "/tools/gmb-post-generator",
      "/tools/facebook-post-generator",
      "/tools/social-plan",
      "/tools/social-post-generator",
      "/tools/video-script-generator",
      "/tools/google-results",
      "/tools/google-ads-analyzer",
      "/tools/local-search-audit",
      "/tools/gbp-audit",
      "/tools/local-search-grid",
      "/tools/local-rank-tracker",
      "/tools/citation-tracker",
      "/tools/ai-visibility",
      "/tools/reviews",
    ]);
    // The 'New' badge is on the newest tool only (AI Visibility, issue 29).
    expect(within(main).getAllByText("New").map((b) => b.closest("article")!.querySelector("h3")!.textContent)).toEqual(["AI Visibility"]);
    expect(within(main).queryByText("Coming Soon")).toBeNull();
    expect(main.querySelectorAll(".tool-card")).toHaveLength(15);
    expect(main.querySelectorAll(".tool-card button")).toHaveLength(0);
  });

  it("welcomes a user who just signed up, and welcomes back one who has been here before", async () => {
    const auth = signedIn();
    const fresh = { ...auth, user: { ...auth.user!, created_at: new Date().toISOString() } };
    const { unmount } = renderApp("/dashboard", fresh);
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, owner" })).toBeTruthy();
    unmount();
    renderApp("/dashboard", signedIn());
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back, owner" })).toBeTruthy();
  });

  it("answers the reports lookup for admins without breaking the page", async () => {
    stubFetch((url) => (url.startsWith("/api/reports") ? json({ reports: [] }) : notFound()));
    renderApp("/dashboard", signedIn({ admin: true }));
    expect(await screen.findByText("Content Tools")).toBeTruthy();
  });
});
