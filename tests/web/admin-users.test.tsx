// Users Management (spec §2, §4) with a stubbed API: table, filters, inline admin confirm, own row, View modal.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { AdminUserDto, UserListResponse } from "../../worker/features/accounts/rules/admin-api";
import { VIEW_AS_KEY, startViewAs } from "../../web/lib/view-as";
import { websiteHref } from "../../web/features/accounts/pages/admin-users";
import { fakeProfile, fakeUser, json, renderApp, signedIn, stubFetch } from "./helpers";

const PATH = "/admin/users";

function user(over: Partial<AdminUserDto> = {}): AdminUserDto {
  return {
    ...fakeProfile(fakeUser("jane@summitroofing.com", "user-2"), false),
    company_name: "Summit Roofing",
    company_website: "summitroofing.com",
    created_at: "2026-02-01T00:00:00.000Z",
    updated_at: "2026-02-01T00:00:00.000Z",
    ...over,
  };
}

const me = () => user({ id: "admin-1", email: "admin@example.com", is_admin: true, company_name: null, company_website: null });

function list(users: AdminUserDto[]): UserListResponse {
  const admins = users.filter((u) => u.is_admin).length;
  return { users, total: users.length, counts: { all: users.length, admins, regular: users.length - admins }, nextCursor: null };
}

describe("Users Management", () => {
  it("shows the count, the columns and https:// added to a bare website", async () => {
    stubFetch((url) => (url.startsWith("/api/admin/users") ? json(list([user(), me()])) : json({ reports: [] })));
    renderApp(PATH, signedIn({ admin: true }));
    expect(await screen.findByText("2 registered users")).toBeTruthy();
    for (const col of ["User", "Created", "Status", "Company", "Actions"]) expect(screen.getByRole("columnheader", { name: col })).toBeTruthy();
    expect(screen.getByRole("link", { name: /summitroofing\.com/ }).getAttribute("href")).toBe("https://summitroofing.com");
    expect(websiteHref("http://a.test")).toBe("http://a.test");
    expect(screen.getByPlaceholderText("Search users...")).toBeTruthy();
    for (const f of ["All", "Admins", "Regular Users"]) expect(screen.getByRole("button", { name: new RegExp(`^${f}`) })).toBeTruthy();
  });

  it("hides View and disables the toggle on the admin's own row", async () => {
    stubFetch((url) => (url.startsWith("/api/admin/users") ? json(list([user(), me()])) : json({ reports: [] })));
    renderApp(PATH, signedIn({ admin: true }));
    const table = await screen.findByRole("table");
    const own = within(table).getByText("admin@example.com").closest("tr")!;
    expect(within(own).queryByRole("button", { name: "View" })).toBeNull();
    expect((within(own).getByRole("button", { name: "Remove Admin" }) as HTMLButtonElement).disabled).toBe(true);
    const other = screen.getByText("jane@summitroofing.com").closest("tr")!;
    expect(within(other).getByRole("button", { name: "View" })).toBeTruthy();
  });

  it("asks 'Make admin?' inline, then flips the row and says 'User admin status changed successfully'", async () => {
    const patches: unknown[] = [];
    stubFetch((url, init) => {
      if (url === "/api/admin/users/user-2" && init.method === "PATCH") {
        patches.push(JSON.parse(String(init.body)));
        return json({ user: user({ is_admin: true }) });
      }
      if (url.startsWith("/api/admin/users")) return json(list([user(), me()]));
      return json({ reports: [] });
    });
    renderApp(PATH, signedIn({ admin: true }));
    const row = (await screen.findByText("jane@summitroofing.com")).closest("tr")!;
    fireEvent.click(within(row).getByRole("button", { name: "Make Admin" }));
    expect(within(row).getByText("Make admin?")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: "Cancel" }));
    expect(patches).toHaveLength(0);
    fireEvent.click(within(row).getByRole("button", { name: "Make Admin" }));
    fireEvent.click(within(row).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("User admin status changed successfully")).toBeTruthy();
    expect(patches).toEqual([{ is_admin: true }]);
    expect(within(row).getByRole("button", { name: "Remove Admin" })).toBeTruthy();
  });

  it("shows the empty states", async () => {
    stubFetch((url) => (url.startsWith("/api/admin/users") ? json(list([])) : json({ reports: [] })));
    renderApp(PATH, signedIn({ admin: true }));
    expect(await screen.findByText("No users found")).toBeTruthy();
    expect(screen.getByText("There are no users in the system yet.")).toBeTruthy();
  });

  it("shows 'Admin Access Required' when the server refuses, with 'Return to Admin Account' in view mode", async () => {
    startViewAs({ adminId: "admin-1", viewingUserId: "user-2", viewingUserEmail: "jane@summitroofing.com", viewingUserDetails: {} });
    stubFetch((url) =>
      url.startsWith("/api/admin/users")
        ? json({ error: { code: "admin_required", message: "You need administrator privileges to access this page." } }, 403)
        : json({ reports: [] }),
    );
    const { location } = renderApp(PATH, signedIn({ admin: true }));
    expect(await screen.findByText("Admin Access Required")).toBeTruthy();
    expect(screen.getByText("You need administrator privileges to access this page.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Return to Admin Account" }));
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
    await waitFor(() => expect(location().pathname).toBe("/dashboard"));
  });

  it("starts a view: 'Preparing View...', the local record, then /dashboard?view_as= after 1 second", async () => {
    stubFetch((url, init) => {
      if (url === "/api/admin/view-as" && init.method === "POST") return json({ user: user() });
      if (url.startsWith("/api/admin/users")) return json(list([user(), me()]));
      return json({ reports: [] });
    });
    const { location } = renderApp(PATH, signedIn({ admin: true }));
    const row = (await screen.findByText("jane@summitroofing.com")).closest("tr")!;
    fireEvent.click(within(row).getByRole("button", { name: "View" }));
    const dialog = screen.getByRole("dialog", { name: "View User Account" });
    expect(within(dialog).getByText(/simulated view, not full impersonation/)).toBeTruthy();
    expect(within(dialog).getByText(/some\s+actions may be limited/)).toBeTruthy();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(within(dialog).getByRole("button", { name: "View User Account" }));
    expect(await within(dialog).findByRole("button", { name: "Preparing View..." })).toBeTruthy();
    // The view starts as the product moves to the viewed dashboard (starting it reads every screen's data again).
    expect(location().pathname).toBe("/admin/users");
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    const record = JSON.parse(localStorage.getItem(VIEW_AS_KEY)!);
    expect(record).toMatchObject({
      adminId: "admin-1",
      viewingUserId: "user-2",
      viewingUserEmail: "jane@summitroofing.com",
      viewingUserDetails: { company_name: "Summit Roofing", is_admin: false },
    });
    expect(location().pathname + location().search).toBe("/dashboard?view_as=user-2");
  });
});
