// Journeys (issue 27): a user scans their own business in the Citation Tracker (the fake directory web: Yelp with a
// suite written differently, an old phone on Yellowpages ...) and reads the fix list, the screen's empty, running,
// loading and error states on the way, the sources table fitting 1280 and 375 px; an admin's scan of a prospect shows
// in its report's "Listings", in the app and signed out on a phone, and the report header's and the prospect card's
// entry points open the tracker on that prospect. Screens go to SHOTS_DIR when it is set.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { CITATION_BUSINESS } from "../fakes/citation-web";
import { accessToken, adminSession, createReport, scanOfReportsProspect, signedInPage, signedUpPage, saveProfile } from "./accounts";
import { baseUrl, newPage, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

async function both(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    // Only for a picture (SHOTS_DIR): without one there is nothing to wait for.
    if (process.env.SHOTS_DIR) await page.waitForTimeout(500);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The sources table fits the page at 1280 and 375 px: no sideways scroll, its last column inside its card. */
async function sourcesFit(page: Page) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const fit = await page.evaluate(() => {
      const table = document.querySelector(".cit-table")!;
      const card = table.closest("section")!;
      const cells = [...table.querySelectorAll("tbody td:last-child")].map((td) => td.getBoundingClientRect().right);
      const wide = [...document.querySelectorAll("main *")].filter((el) => el.getBoundingClientRect().right > window.innerWidth).slice(0, 8).map((el) => `${el.tagName}.${el.className}`);
      return { wide, page: document.documentElement.scrollWidth, table: table.getBoundingClientRect().right, card: card.getBoundingClientRect().right, lastCell: Math.max(...cells) };
    });
    expect(fit.page, `page width at ${width}: ${fit.wide.join(" | ")}`).toBeLessThanOrEqual(width);
    expect(fit.table, `table inside its card at ${width}`).toBeLessThanOrEqual(fit.card);
    expect(fit.lastCell, `fix links inside the card at ${width}`).toBeLessThanOrEqual(fit.card);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe("Citation Tracker", () => {
  it("a user scans their own business and reads what to fix first", async () => {
    const email = uniqueEmail("cit");
    const { context, page } = await signedUpPage(browser(), email, "10.78.27.1", 1280);
    const token = await accessToken(email);
    await saveProfile(token, { company_name: CITATION_BUSINESS.name, company_location: CITATION_BUSINESS.address, company_phone: CITATION_BUSINESS.phone, company_website: CITATION_BUSINESS.website, company_category: "Plumbing" });

    await page.goto("/tools/citation-tracker");
    await page.getByRole("heading", { level: 1, name: "Citation Tracker" }).waitFor();
    await page.getByText("No scans yet").waitFor({ timeout: 30_000 });
    await page.getByText(/web searches · about \$/).waitFor({ timeout: 30_000 });
    await both(page, "citations-empty");
    const run = page.getByRole("button", { name: "Scan listings" });
    await expect.poll(() => run.isEnabled()).toBe(true);
    // Searches answer after 1.5 s for a moment, so the running scan can be looked at: its progress line, sources checking.
    const searchFake = (latencyMs: number) => fetch(`${inject("searchUrl")}/__config`, { method: "POST", body: JSON.stringify({ latencyMs }) });
    await searchFake(1500);
    try {
      await run.click();
      await page.getByText(/Looking up sources: \d+ of \d+ answered/).waitFor({ timeout: 30_000 });
      await page.getByRole("table").getByText("Checking…").first().waitFor();
      expect(await page.getByRole("button", { name: "Export CSV" }).count()).toBe(0);
      await both(page, "citations-scanning");
    } finally {
      await searchFake(0);
    }
    // The sources answer through the queue; the fix list appears once the scan is done.
    const fixes = page.getByRole("heading", { name: "What to fix first" });
    await fixes.waitFor({ timeout: 90_000 });
    const items = await fixes.locator("xpath=ancestor::section[1]").getByRole("listitem").allTextContents();
    expect(items.length).toBeGreaterThan(0);
    // The old phone on a directory is a correction with the number to write.
    expect(items.some((t) => /change the phone from ".+" to "\(512\) 555-0142"/.test(t))).toBe(true);
    expect(await page.getByRole("table").getByText("Inconsistent").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Export CSV" }).waitFor();
    await both(page, "citations-done");
    await sourcesFit(page);

    // While the scans load: the loading state (the list held back a moment); when they cannot be read: the error,
    // and Try again brings the scan back.
    let mode: "hold" | "refuse" | "pass" = "hold";
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/api/citations/scans" && url.searchParams.get("business") === "own",
      async (route) => {
        if (mode === "hold") await held;
        if (mode === "refuse") return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "unavailable", message: "down" } }) });
        return route.continue();
      },
    );
    await page.reload();
    await page.getByRole("main").getByText("Loading...").waitFor({ timeout: 30_000 });
    await both(page, "citations-loading");
    mode = "refuse";
    release();
    await page.getByText("Could not load the scans.").waitFor({ timeout: 30_000 });
    await both(page, "citations-error");
    mode = "pass";
    await page.getByRole("button", { name: "Try again" }).click();
    await fixes.waitFor({ timeout: 30_000 });
    await context.close();
  });

  it("an admin's scan of a prospect shows in its report's Listings, in the app and on the shared page without the phone", async () => {
    const { email, token } = await adminSession();
    const reportId = await createReport(token, {
      name: CITATION_BUSINESS.name,
      company_name: CITATION_BUSINESS.name,
      phone: CITATION_BUSINESS.phone,
      area: "Austin, TX",
      keyword: "plumber",
      description: "Drain cleaning and water heaters",
      category: "Plumbing",
      generate: true,
    });
    const { auth, prospectId, scanId } = await scanOfReportsProspect(token, reportId, "/api/citations/scans", (business) => ({ business }), 90_000);

    const { context, page } = await signedInPage(browser(), email, 1280);
    await page.goto(`/admin/reports/${reportId}`);
    const section = page.locator("#listings");
    await section.getByText(/^Found on \d+ of \d+ sources/).waitFor({ timeout: 30_000 });
    await section.scrollIntoViewIfNeeded();
    await both(page, "listings-admin");
    // The section's link opens the tracker on this prospect.
    await section.getByRole("link", { name: "Open in Citation Tracker" }).click();
    await page.getByRole("heading", { name: `New scan for ${CITATION_BUSINESS.name}` }).waitFor({ timeout: 30_000 });

    // The report header's entry point: the tracker opens scoped to the prospect (its scan shown, its history), and a
    // scan run there is the prospect's.
    await page.goto(`/admin/reports/${reportId}`);
    await page.getByRole("heading", { level: 1, name: new RegExp(`Report for ${CITATION_BUSINESS.name}`) }).waitFor({ timeout: 30_000 });
    await page.getByRole("link", { name: "Scan listings" }).click();
    await page.waitForURL((url) => url.pathname === "/tools/citation-tracker" && url.searchParams.get("prospect") === prospectId);
    await page.getByRole("heading", { name: `New scan for ${CITATION_BUSINESS.name}` }).waitFor({ timeout: 30_000 });
    const shown = (await (await fetch(`${baseUrl()}/api/citations/scans/${scanId}`, { headers: auth })).json()) as { summary: { listed: number; checked: number } };
    await page.getByRole("heading", { name: "What to fix first" }).waitFor({ timeout: 30_000 });
    expect(await page.locator(".cit-stats").textContent()).toContain(`${shown.summary.listed}of ${shown.summary.checked} sources list you`);
    expect(await page.getByRole("heading", { name: "History", exact: true }).count()).toBe(1);
    const scanHere = page.getByRole("button", { name: "Scan listings" });
    await expect.poll(() => scanHere.isEnabled(), { timeout: 30_000 }).toBe(true);
    await scanHere.click();
    await expect
      .poll(async () => ((await (await fetch(`${baseUrl()}/api/citations/scans?business=${prospectId}`, { headers: auth })).json()) as { scans: unknown[] }).scans.length, { timeout: 30_000 })
      .toBe(2);

    // The prospect card's entry point lands on the same prospect.
    await page.goto("/admin/report-generator");
    await page.getByLabel("Search prospects").fill(CITATION_BUSINESS.name);
    const card = page.locator("article.prospect-card", { has: page.locator(`a[href*="prospect=${prospectId}"]`) });
    await card.getByRole("link", { name: "Listings" }).click();
    await page.waitForURL((url) => url.pathname === "/tools/citation-tracker" && url.searchParams.get("prospect") === prospectId);
    await page.getByRole("heading", { name: `New scan for ${CITATION_BUSINESS.name}` }).waitFor({ timeout: 30_000 });
    await context.close();

    const phone = await newPage(browser(), 375);
    await phone.page.goto(`/shared/reports/${reportId}`);
    const shared = phone.page.locator("#listings");
    await shared.getByText(/^Found on \d+ of \d+ sources/).waitFor({ timeout: 30_000 });
    expect(await shared.textContent()).not.toMatch(/555/);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shared.scrollIntoViewIfNeeded();
    await shot(phone.page, "listings-shared-375");
    if (process.env.SHOTS_DIR) await shared.screenshot({ path: `${process.env.SHOTS_DIR}/listings-shared-only-375.png` });
    await phone.context.close();
  });
});
