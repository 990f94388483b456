// Journeys: an admin pastes prospects (one bad row), searches, tags and deletes one; then on Users Management
// grants and removes admin on another user and views the product as that user, read-only, and returns.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiSignUp, signedInPage } from "./accounts";
import { shot, uniqueEmail, useBrowser } from "./browser";

const INVALID_ROW =
  "Invalid row format. Expected format: Description\\tName\\tLocation\\tPhone\\tEmail\\tFull Name";

const browser = useBrowser();

/** Sign-up through the API (the admin account is shared by every journey: an existing one just signs in). */
async function signUpApi(email: string) {
  const res = await apiSignUp(email, `10.78.0.${Math.floor(Math.random() * 250)}`);
  const body = (await res.json()) as { user?: { id: string } };
  return body.user?.id;
}

const cards = (page: Page) => page.locator("article.prospect-card");

describe("admin", () => {
  it("prospects: paste three rows (one bad) → two cards and the partial message; search; tag; delete", async () => {
    const email = inject("adminEmail");
    await signUpApi(email);
    const { context, page } = await signedInPage(browser(), email);

    await page.goto("/admin/report-generator");
    await page.getByRole("heading", { level: 1, name: /prospects? created$/ }).waitFor();
    const stamp = Date.now().toString(36);
    const first = `Beacon Roofing ${stamp}`;
    const second = `Tidewater Plumbing ${stamp}`;
    await page.getByRole("button", { name: "New Prospect" }).click();
    await page.getByLabel("Paste prospects").fill(
      [
        `Roof repair and replacement\t${first}\tAustin, TX\t(512) 555-0142\tinfo@beacon.test\tJane Doe`,
        `Emergency plumbing\t${second}\tNorfolk, VA\t757-555-0199`,
        `just a description`,
      ].join("\n"),
    );
    // The shared parser flags the bad row before anything is sent.
    await page.getByText(`Row 3: ${INVALID_ROW}`).first().waitFor();
    await page.getByRole("button", { name: "Create Prospect" }).click();

    await page.getByText("Created 2 prospects successfully. 1 failed.").waitFor();
    expect(await page.locator(".import-report").getByText(`Row 3: ${INVALID_ROW}`).isVisible()).toBe(true);
    await page.getByRole("article", { name: first }).waitFor();
    await page.getByRole("article", { name: second }).waitFor();
    await shot(page, "admin-prospects-imported");

    // Search on the server narrows the grid to this run's two prospects, then to one.
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(stamp);
    await page.getByText(`2 matches for "${stamp}"`).waitFor();
    expect(await cards(page).count()).toBe(2);
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(`tidewater plumbing ${stamp}`);
    await page.getByText(`1 match for "tidewater plumbing ${stamp}"`).waitFor();
    expect(await cards(page).count()).toBe(1);
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(stamp);
    await page.getByText(`2 matches for "${stamp}"`).waitFor();

    // Tag change: the card keeps the new tag and the message names it.
    const card = page.getByRole("article", { name: first });
    expect(await card.getByLabel(`Tag for ${first}`).inputValue()).toBe("Roofing");
    await card.getByLabel(`Tag for ${first}`).selectOption("Pool Services");
    await page.getByText('Prospect tag updated to "Pool Services"').waitFor();
    await page.reload();
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(`pool services`);
    await page.getByRole("article", { name: first }).waitFor();
    expect(await page.getByRole("article", { name: first }).getByLabel(`Tag for ${first}`).inputValue()).toBe("Pool Services");

    // Delete through the dialog.
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(stamp);
    await page.getByText(`2 matches for "${stamp}"`).waitFor();
    await page.getByRole("button", { name: `Delete ${second}` }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete Prospect" });
    await dialog.getByText("Are you sure you want to delete this prospect? This action cannot be undone.").waitFor();
    await shot(page, "admin-prospects-delete");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Prospect deleted successfully").waitFor();
    await dialog.waitFor({ state: "detached" });
    expect(await cards(page).count()).toBe(1);
    await page.reload();
    await page.getByRole("searchbox", { name: "Search prospects" }).fill(stamp);
    await page.getByText(`1 match for "${stamp}"`).waitFor();
    expect(await page.getByRole("article", { name: second }).count()).toBe(0);
    await context.close();
  });

  it("users: toggle another user's admin with the inline confirm, view as them (read-only) and return", async () => {
    const email = inject("adminEmail");
    await signUpApi(email);
    const otherEmail = uniqueEmail("crew");
    const otherId = await signUpApi(otherEmail);
    expect(otherId).toBeTruthy();

    const { context, page } = await signedInPage(browser(), email);
    await page.goto("/admin/users");
    await page.getByText(/\d+ registered users?/).waitFor();
    await page.getByRole("searchbox", { name: "Search users" }).fill(otherEmail);
    const row = page.getByRole("row").filter({ hasText: otherEmail });
    await row.waitFor();
    // The search runs on the server: the admin's own row drops out of the list.
    await page.getByRole("row").filter({ hasText: email }).waitFor({ state: "detached" });

    await row.getByRole("button", { name: "Make Admin" }).click();
    await row.getByText("Make admin?").waitFor();
    await shot(page, "admin-users-confirm");
    await row.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("User admin status changed successfully").waitFor();
    await row.getByRole("button", { name: "Remove Admin" }).click();
    await row.getByText("Remove admin?").waitFor();
    await row.getByRole("button", { name: "Confirm" }).click();
    await row.getByRole("button", { name: "Make Admin" }).waitFor();

    // The admin's own row: no View, and the toggle is disabled.
    await page.getByRole("searchbox", { name: "Search users" }).fill(email);
    const own = page.getByRole("row").filter({ hasText: email });
    await own.waitFor();
    expect(await own.getByRole("button", { name: "View" }).count()).toBe(0);
    expect(await own.getByRole("button", { name: "Remove Admin" }).isDisabled()).toBe(true);

    // View as the other user.
    await page.getByRole("searchbox", { name: "Search users" }).fill(otherEmail);
    await row.getByRole("button", { name: "View" }).click();
    const modal = page.getByRole("dialog", { name: "View User Account" });
    await modal.getByText(/simulated view, not full impersonation/).waitFor();
    await modal.getByRole("button", { name: "View User Account" }).click();
    await modal.getByRole("button", { name: "Preparing View..." }).waitFor();
    await page.waitForURL(`**/dashboard?view_as=${otherId}`);
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await sidebar.getByText("Viewing as user").waitFor();
    expect(await sidebar.getByText("Unknown Company").isVisible()).toBe(true);
    expect(await sidebar.getByText("View Mode").isVisible()).toBe(true);
    expect(await sidebar.getByRole("link", { name: "Prospects" }).count()).toBe(0);
    await shot(page, "admin-view-as");

    // Read-only and real: the admin screens now answer as they would to that regular user.
    await page.goto("/admin/report-generator");
    await page.getByText("Admin Access Required").waitFor();

    await page.goto(`/dashboard?view_as=${otherId}`);
    await sidebar.getByRole("button", { name: "Return to Admin View" }).click();
    await page.waitForURL(/\/dashboard$/);
    await sidebar.getByRole("link", { name: "Prospects" }).waitFor();
    expect(await sidebar.getByText("Viewing as user").count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("admin_view_as"))).toBeNull();
    await context.close();
  });

  it("Set-up fits a 375 px phone: no sideways scroll, every service's steps wrap", async () => {
    const email = inject("adminEmail");
    await signUpApi(email);
    const { context, page } = await signedInPage(browser(), email, 375);
    await page.goto("/admin/setup");
    await page.getByRole("heading", { level: 1, name: "Set-up" }).waitFor();
    await page.getByRole("list", { name: "Services" }).waitFor();
    // Every service's steps open, set up or not: the longest (secret names, the Google redirect URL) must wrap too.
    await page.evaluate(() => document.querySelectorAll("details.setup-steps").forEach((d) => ((d as HTMLDetailsElement).open = true)));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, "admin-setup-375");
    await context.close();
  });
});
