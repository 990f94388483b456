// Journeys (issue 18): an admin pastes a prospect with a website (the fake Joe's Plumbing site), opens its report and
// watches "What we found" fill in, then shares it; signed out on a phone the shared page shows the findings; a user
// runs Local Search Audit on their own business from Business Settings.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { confirmedAccount, adminSession, signedInPage, saveProfile } from "./accounts";
import { newPage, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

/** Waits for the audit shown on the page to have finished every step (the fakes answer within seconds). */
async function auditDone(page: Page) {
  await page.locator('.audit[data-audit-status="done"]').waitFor({ timeout: 60_000 });
}

async function findings(page: Page) {
  const scores = page.getByRole("list", { name: "Score by section" });
  // Under load (the suite runs journeys side by side) the first answers can be slow.
  await scores.waitFor({ timeout: 30_000 });
  // The list can be in the page a moment before its rows (a loaded machine showed it empty): wait for the first row.
  await scores.locator(".audit-section-name").first().waitFor({ timeout: 30_000 });
  return (await scores.locator(".audit-section-name").allTextContents()).length;
}

describe("What we found", () => {
  it("an admin pastes a prospect with a website, watches the audit fill in, shares the report; a phone reads the findings", async () => {
    const { email } = await adminSession();
    const site = `${inject("websiteUrl")}/site/`;
    const name = `Joe's Plumbing ${Date.now().toString(36)}`;
    const { context, page } = await signedInPage(browser(), email, 1280);

    await page.goto("/admin/report-generator");
    await page.getByRole("button", { name: "New Prospect" }).click();
    await page.getByText(/7th column, Website/).waitFor();
    await page.getByLabel("Paste prospects").fill(`Emergency plumbing\t${name}\tAustin, TX\t(512) 555-0142\tjoe@plumbing.test\tJoe Smith\t${site}`);
    await page.getByRole("button", { name: "Create Prospect" }).click();
    const card = page.getByRole("article", { name });
    await card.waitFor();
    await card.getByRole("link", { name: "View" }).click();
    await page.waitForURL(/\/admin\/reports\//);

    const section = page.locator("#what-we-found");
    await section.getByRole("heading", { name: "What we found" }).waitFor({ timeout: 30_000 });
    // Pasting a prospect with a website started its audit: the findings fill in as the steps land.
    expect(await findings(page)).toBe(7);
    await shot(page, "audit-admin-report-1280");
    await auditDone(page);
    expect(await section.locator(".audit-check .verdict.is-pending").count()).toBe(0);
    // Read from the fake site: its title is a finding with evidence, and the competitors sit beside the business.
    expect(await section.locator(".audit-check", { hasText: "Page title" }).textContent()).toMatch(/Your page title is \d+ characters/);
    expect(await section.getByRole("table").locator("tbody tr").count()).toBeGreaterThan(1);
    await shot(page, "audit-admin-report-done-1280");

    const shareUrl = await page.getByTestId("shared-link").getAttribute("href");
    expect(shareUrl).toMatch(/\/shared\/reports\//);
    await context.close();

    // Signed out, on a phone: the shared page (rendered by the worker) shows the findings, and no listing picker.
    const phone = await newPage(browser(), 375);
    await phone.page.goto(new URL(shareUrl!).pathname);
    await phone.page.getByRole("heading", { name: "What we found" }).waitFor({ timeout: 30_000 });
    expect(await findings(phone.page)).toBe(7);
    expect(await phone.page.locator('input[type="radio"]').count()).toBe(0);
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await shot(phone.page, "audit-shared-375");
    await phone.context.close();
  });

  it("a user runs Local Search Audit on their own business", async () => {
    const email = uniqueEmail("audit");
    const { token } = await confirmedAccount(email, "10.77.0.31");
    const { context, page } = await signedInPage(browser(), email, 1280);

    // Without a location in Business Settings the tool says what is missing and links there.
    await page.goto("/tools/local-search-audit");
    await page.getByRole("heading", { level: 1, name: "Local Search Audit" }).waitFor();
    await page.getByText("Your business details are needed").waitFor();
    await shot(page, "audit-tool-missing-1280");

    await saveProfile(token, {
      company_name: "Joe's Plumbing",
      company_location: "1200 Main Street #300, Austin, TX 78701",
      company_phone: "(512) 555-0142",
      company_website: `${inject("websiteUrl")}/site/`,
      company_category: "Plumbing",
    });
    await page.reload();
    const run = page.getByRole("button", { name: "Run the audit" });
    await run.waitFor();
    await shot(page, "audit-tool-first-run-1280");
    await run.click();
    expect(await findings(page)).toBe(7);
    await auditDone(page);
    expect(await page.getByRole("heading", { name: "What to fix first" }).isVisible()).toBe(true);
    // Audited just now: it says when it can run again instead of offering to.
    await page.getByText(/it can run again on/).waitFor();
    expect(await page.getByRole("button", { name: "Run again" }).count()).toBe(0);
    await shot(page, "audit-tool-done-1280");
    await page.emulateMedia({ media: "print" });
    expect(await page.locator(".sidebar").isVisible()).toBe(false);
    await shot(page, "audit-tool-print-1280");
    await context.close();
  });
});
