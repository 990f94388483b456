// Sidebar rules (spec §2): admin section, role labels, view-mode banner, Social group, AI Chat target.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route, Routes, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { Sidebar } from "../../web/app/sidebar";
import { VIEW_AS_KEY, startViewAs } from "../../web/lib/view-as";
import { hangingResponse, json, notFound, renderApp, renderAt, signedIn, stubFetch } from "./helpers";

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function renderSidebar(path: string, auth = signedIn()) {
  return renderAt(
    path,
    auth,
    <>
      <Routes>
        <Route path="*" element={<Sidebar />} />
      </Routes>
      <Where />
    </>,
  );
}

function viewAsRecord(company: string | null = "Acme Roofing") {
  startViewAs({
    adminId: "admin-1",
    viewingUserId: "user-9",
    viewingUserEmail: "owner@acme.test",
    viewingUserDetails: { company_name: company, is_admin: false },
  });
}

const adminSection = () => screen.queryByRole("list", { name: "Admin" });

describe("sidebar: admin section and labels", () => {
  it("shows Needs Attention, Clients, Prospects, Pipeline, Users, Widgets, Brand, Client Reports and AI Chat to an admin, with the 'Admin' label", async () => {
    stubFetch(() => json({ reports: [] }));
    renderSidebar("/dashboard", signedIn({ admin: true }));
    const section = adminSection()!;
    expect(section).toBeTruthy();
    expect(within(section).getByRole("link", { name: "Prospects" }).getAttribute("href")).toBe("/admin/report-generator");
    expect(within(section).getByRole("link", { name: "Users" }).getAttribute("href")).toBe("/admin/users");
    expect(within(section).getByRole("link", { name: "Widgets" }).getAttribute("href")).toBe("/admin/widgets");
    expect(within(section).getByRole("link", { name: "Brand" }).getAttribute("href")).toBe("/admin/brand");
    expect(within(section).getByRole("link", { name: "Client Reports" }).getAttribute("href")).toBe("/admin/client-reports");
    // Issue 30: the agency's Client Reports sit beside Widgets and Brand; issue 41: what needs attention comes first.
    expect(within(section).getByRole("link", { name: "Needs Attention" }).getAttribute("href")).toBe("/admin/attention");
    expect(
      within(section)
        .getAllByRole("link")
        .map((a) => a.textContent),
    ).toEqual(["Needs Attention", "Clients", "Prospects", "Pipeline", "Users", "Widgets", "Brand", "Client Reports", "Set-up"]);
    expect(within(section).getByText("AI Chat")).toBeTruthy();
    expect(screen.getByText("Admin", { selector: ".badge" })).toBeTruthy();
    expect(screen.queryByText("View Mode")).toBeNull();
    expect(screen.getByText("admin@example.com")).toBeTruthy();
  });

  it("hides the admin section and label from a regular user", () => {
    const fetch = stubFetch(() => notFound());
    renderSidebar("/dashboard", signedIn());
    expect(adminSection()).toBeNull();
    expect(screen.queryByText("Admin")).toBeNull();
    expect(screen.queryByText("View Mode")).toBeNull();
    expect(screen.getByText("owner@plumbing.test")).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("gives every user their monthly Reports right under the Dashboard, outside the tool groups (issue 30)", () => {
    stubFetch(() => notFound());
    renderSidebar("/reports", signedIn());
    const main = screen.getByRole("navigation", { name: "Main" });
    const top = main.querySelector(".nav-list")!;
    expect(within(top as HTMLElement).getAllByRole("link").map((a) => a.textContent)).toEqual(["Dashboard", "Reports"]);
    const reports = screen.getByRole("link", { name: "Reports" });
    expect(reports.getAttribute("href")).toBe("/reports");
    expect(reports.getAttribute("aria-current")).toBe("page");
    expect(within(screen.getByRole("list", { name: "Tools" })).queryByRole("link", { name: "Reports" })).toBeNull();
  });

  it("hides the admin section in view mode and shows the 'View Mode' label and banner", () => {
    const fetch = stubFetch(() => json({ reports: [] }));
    viewAsRecord();
    renderSidebar("/settings/personal", signedIn({ admin: true }));
    expect(adminSection()).toBeNull();
    expect(screen.getByText("View Mode")).toBeTruthy();
    expect(screen.queryByText("Admin")).toBeNull();
    expect(screen.getByText("Viewing as user")).toBeTruthy();
    expect(screen.getByText("Acme Roofing")).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("names an unknown company 'Unknown Company' in the banner", () => {
    viewAsRecord(null);
    renderSidebar("/settings/personal", signedIn({ admin: true }));
    expect(screen.getByText("Unknown Company")).toBeTruthy();
  });

  it("'Return to Admin View' clears the record and goes to /dashboard", async () => {
    stubFetch(() => json({ reports: [] }));
    viewAsRecord();
    renderSidebar("/settings/personal", signedIn({ admin: true }));
    fireEvent.click(screen.getByRole("button", { name: "Return to Admin View" }));
    await waitFor(() => expect(screen.getByTestId("where").textContent).toBe("/dashboard"));
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
    expect(screen.queryByText("Viewing as user")).toBeNull();
    expect(adminSection()).toBeTruthy();
  });

  it("keeps the view alive from the Dashboard link (it carries view_as)", () => {
    viewAsRecord();
    renderSidebar("/settings/personal", signedIn({ admin: true }));
    expect(screen.getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("/dashboard?view_as=user-9");
  });

  it("keeps the email whole on one line, never broken at the '@' (issue 26), with the whole address on hover", () => {
    renderSidebar("/dashboard", signedIn({ email: "operations.manager@ridgelineroofing-austin.test" }));
    const email = screen.getByText("operations.manager@ridgelineroofing-austin.test");
    expect(email.getAttribute("title")).toBe("operations.manager@ridgelineroofing-austin.test");
    expect(email.querySelector("wbr")).toBeNull();
    expect(email.childNodes).toHaveLength(1);
  });

  it("signs out and goes to /login", async () => {
    const auth = signedIn();
    renderSidebar("/dashboard", auth);
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(screen.getByTestId("where").textContent).toBe("/login"));
    expect(auth.signOut).toHaveBeenCalledOnce();
  });
});

describe("sidebar: tools", () => {
  it("collapses both groups by default; every content tool is a link (the suite is live)", () => {
    renderSidebar("/dashboard");
    const content = screen.getByRole("button", { name: "Content" });
    const social = screen.getByRole("button", { name: "Social" });
    expect(content.getAttribute("aria-expanded")).toBe("false");
    expect(social.getAttribute("aria-expanded")).toBe("false");
    expect((screen.getByText("GMB Post Scheduler").closest("ul") as HTMLUListElement).hidden).toBe(true);
    fireEvent.click(content);
    expect((screen.getByText("GMB Post Scheduler").closest("ul") as HTMLUListElement).hidden).toBe(false);
    expect(content.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("GMB Post Scheduler").closest("a")?.getAttribute("href")).toBe("/tools/gmb-post-scheduler");
    expect(screen.getByRole("link", { name: /GMB Post Generator/ }).getAttribute("href")).toBe("/tools/gmb-post-generator");
    expect(document.querySelector("[aria-disabled='true']")).toBeNull();
    expect(screen.getByRole("link", { name: "Integrations" }).getAttribute("href")).toBe("/integrations");
  });

  it("forces the Social group open on /tools/facebook-post-generator; every social tool is a link, none of them 'New' any more", () => {
    renderSidebar("/tools/facebook-post-generator");
    const social = screen.getByRole("button", { name: "Social" });
    expect(social.getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(social);
    expect(social.getAttribute("aria-expanded")).toBe("true");
    const link = screen.getByRole("link", { name: /Facebook Post Generator/ });
    expect(link.getAttribute("href")).toBe("/tools/facebook-post-generator");
    expect(link.getAttribute("aria-current")).toBe("page");
    expect(within(link).queryByText("New")).toBeNull();
    expect(within(screen.getByRole("link", { name: /Social Plan/ })).queryByText("New")).toBeNull();
    for (const [name, path] of [
      ["Social Plan", "/tools/social-plan"],
      ["Social Post Generator", "/tools/social-post-generator"],
      ["Video Script Generator", "/tools/video-script-generator"],
    ]) {
      expect(screen.getByText(name!).closest("a")!.getAttribute("href")).toBe(path);
    }
  });

  it("lists the search and audit tools in a Search group after Content and Social, open while on one of them", () => {
    renderSidebar("/dashboard");
    const tools = screen.getByRole("list", { name: "Tools" });
    const groups = within(tools)
      .getAllByRole("button")
      .map((b) => b.textContent);
    expect(groups).toEqual(["Content", "Social", "Search", "Reputation"]);
    const search = screen.getByRole("button", { name: "Search" });
    expect(search.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(search);
    const list = document.getElementById(search.getAttribute("aria-controls")!)!;
    expect(within(list).getByRole("link", { name: "Google Search Results" }).getAttribute("href")).toBe("/tools/google-results");
    expect(within(list).getByRole("link", { name: "Local Services Analyzer" }).getAttribute("href")).toBe("/tools/google-ads-analyzer");
    expect(within(list).getByRole("link", { name: /^Local Search Audit/ }).getAttribute("href")).toBe("/tools/local-search-audit");
    expect(within(list).getByRole("link", { name: /^GBP Audit/ }).getAttribute("href")).toBe("/tools/gbp-audit");
    expect(within(list).getByRole("link", { name: /^Local Search Grid/ }).getAttribute("href")).toBe("/tools/local-search-grid");
    expect(within(list).getByRole("link", { name: /^Local Rank Tracker/ }).getAttribute("href")).toBe("/tools/local-rank-tracker");
    expect(within(within(list).getByRole("link", { name: /^Citation Tracker/ })).queryByText("New")).toBeNull();
    expect(within(list).getByRole("link", { name: /^Citation Tracker/ }).getAttribute("href")).toBe("/tools/citation-tracker");
    // AI Visibility (issue 29) comes after the Citation Tracker and carries the 'New' badge, the newest tool's only.
    const names = within(list)
      .getAllByRole("link")
      .map((a) => a.getAttribute("href"));
    expect(names.slice(-2)).toEqual(["/tools/citation-tracker", "/tools/ai-visibility"]);
    expect(within(within(list).getByRole("link", { name: /^AI Visibility/ })).getByText("New")).toBeTruthy();
  });

  it("has a Reputation group with the review inbox, open on /tools/reviews (issue 28)", () => {
    renderSidebar("/tools/reviews");
    const reputation = screen.getByRole("button", { name: "Reputation" });
    expect(reputation.getAttribute("aria-expanded")).toBe("true");
    const list = document.getElementById(reputation.getAttribute("aria-controls")!)!;
    expect(within(list).getByRole("link", { name: /^Reviews/ }).getAttribute("href")).toBe("/tools/reviews");
    expect(within(within(list).getByRole("link", { name: /^Reviews/ })).queryByText("New")).toBeNull();
  });

  it.each(["/tools/google-results", "/tools/google-ads-analyzer", "/tools/gbp-audit"])("opens the Search group on %s", (path) => {
    renderSidebar(path);
    expect(screen.getByRole("button", { name: "Search" }).getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("button", { name: "Social" }).getAttribute("aria-expanded")).toBe("false");
  });

  it("marks the current page with aria-current", () => {
    renderSidebar("/settings/personal");
    expect(screen.getByRole("link", { name: "Business Settings" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBeNull();
    expect(screen.getByRole("link", { name: "Subscription" }).getAttribute("href")).toBe("/subscription");
  });
});

describe("sidebar: AI Chat", () => {
  const aiChatLink = () => screen.queryByRole("link", { name: "AI Chat" });

  it("is plain text while no report exists (empty list)", async () => {
    const fetch = stubFetch(() => json({ reports: [] }));
    renderSidebar("/dashboard", signedIn({ admin: true }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/reports?limit=1");
    expect(new Headers(init.headers).get("Authorization")).toBe("Bearer access-token");
    await act(async () => {});
    expect(aiChatLink()).toBeNull();
    expect(screen.getByTestId("ai-chat-text").textContent).toBe("AI Chat");
  });

  it("is plain text while the reports endpoint answers 404", async () => {
    const fetch = stubFetch(() => notFound());
    renderSidebar("/dashboard", signedIn({ admin: true }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await act(async () => {});
    expect(aiChatLink()).toBeNull();
  });

  it("links to the newest report's chat", async () => {
    stubFetch(() => json({ reports: [{ id: "rep-42" }] }));
    renderSidebar("/dashboard", signedIn({ admin: true }));
    await waitFor(() => expect(aiChatLink()?.getAttribute("href")).toBe("/admin/prospect-chat/rep-42"));
  });

  it("follows the first report at once: created on New Report, AI Chat links to it without opening another page", async () => {
    let created = false;
    stubFetch((url, init) => {
      if (url === "/api/reports" && init.method === "POST") {
        created = true;
        return json({ report: { id: "first-1", status: "draft" } }, 201);
      }
      if (url.startsWith("/api/reports?limit=1")) return json({ reports: created ? [{ id: "first-1" }] : [] });
      return json({ reports: [] });
    });
    renderApp("/admin/new-report", signedIn({ admin: true }));
    await screen.findByRole("heading", { name: "Create New Report" });
    await waitFor(() => expect(screen.getByTestId("ai-chat-text")).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/Business Name/), { target: { value: "Summit Peak Roofing" } });
    fireEvent.change(screen.getByLabelText(/Business Location/), { target: { value: "Austin, TX" } });
    fireEvent.change(screen.getByLabelText(/Target Keyword/), { target: { value: "roof repair" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Only" }));
    await waitFor(() => expect(aiChatLink()?.getAttribute("href")).toBe("/admin/prospect-chat/first-1"));
  });

  it("links to the open chat while on a chat route", async () => {
    stubFetch(() => json({ reports: [{ id: "rep-42" }] }));
    renderSidebar("/admin/prospect-chat/rep-7", signedIn({ admin: true }));
    await act(async () => {});
    expect(aiChatLink()?.getAttribute("href")).toBe("/admin/prospect-chat/rep-7");
  });

  it("links to the prospects list when the lookup times out after 10 seconds", async () => {
    vi.useFakeTimers();
    stubFetch((_url, init) => hangingResponse(init));
    renderSidebar("/dashboard", signedIn({ admin: true }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_000);
    });
    expect(aiChatLink()).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(aiChatLink()?.getAttribute("href")).toBe("/admin/report-generator");
  });
});
