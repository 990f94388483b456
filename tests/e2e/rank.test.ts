// Journeys (issue 19): a user runs a 3×3 Local Search Grid for their own business (found on Google Maps by the fake
// provider from Business Settings) and watches the heat map fill in, runs it again and compares the two scans, opens
// the share link signed out on a phone; then tracks a keyword and sees its first check. Screens at 375 and 1280 px
// go to SHOTS_DIR when it is set. An admin's grid for a prospect shows in its report's "Local visibility".
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { accessToken, adminSession, createPlumberReport, scanOfReportsProspect, signedInPage, signedUpPage, saveProfile } from "./accounts";
import { newPage, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

/** The heat map's points by band, row by row. */
const bands = (page: Page) => page.locator(".rank-point").evaluateAll((gs) => gs.map((g) => (g as SVGGElement).dataset.band));

async function both(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    // Let the layout settle at the new width (the sidebar's drawer animates) before the picture.
    // Only for a picture (SHOTS_DIR): without one there is nothing to wait for.
    if (process.env.SHOTS_DIR) await page.waitForTimeout(500);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The section alone (a report page is long), to SHOTS_DIR when set. */
async function sectionShot(section: Locator, name: string) {
  if (process.env.SHOTS_DIR) await section.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png` });
}

async function runGrid(page: Page) {
  await page.getByRole("textbox", { name: "Keyword" }).fill("emergency plumbing");
  await page.getByRole("button", { name: "3×3" }).click();
  await page.getByText(/^9 map searches · about \$/).waitFor();
  const run = page.getByRole("button", { name: "Run the grid" });
  await expect.poll(() => run.isEnabled()).toBe(true);
  await run.click();
}

describe("Local rank tracking", () => {
  it("a user runs a 3×3 grid for their own business, sees it fill in, compares two scans and shares one; then tracks a keyword", async () => {
    const email = uniqueEmail("rank");
    const { context, page } = await signedUpPage(browser(), email, "10.78.19.1", 1280);
    const token = await accessToken(email);
    await saveProfile(token, {
      company_name: "Joe's Plumbing",
      company_location: "1200 Main Street #300, Austin, TX 78701",
      company_website: `${inject("websiteUrl")}/site/`,
      company_category: "Plumbing",
    });

    await page.goto("/tools/local-search-grid");
    await page.getByRole("heading", { level: 1, name: "Local Search Grid" }).waitFor();
    await page.getByRole("heading", { name: "No scans yet" }).waitFor({ timeout: 30_000 });
    await runGrid(page);
    // The scan is shown at once, every point still to search; then the points land one by one.
    await page.locator(".rank-point").nth(8).waitFor({ timeout: 30_000 });
    expect(await bands(page)).toHaveLength(9);
    // The picture of a running scan, while it still runs (the fake answers fast: best effort, no assertion).
    if (await page.getByText(/Searching point by point/).isVisible()) await both(page, "grid-running");
    await expect.poll(async () => (await bands(page)).filter((b) => b === "pending").length, { timeout: 60_000, interval: 500 }).toBe(0);
    await page.getByText(/Searching point by point/).waitFor({ state: "detached", timeout: 60_000 });
    // Every point searched (the fake answers each point deterministically, Joe's Plumbing 1–20 or missing), none failed;
    // the figures are the ones the drawn points make.
    const marks = await page.locator(".rank-point text").allTextContents();
    expect(marks.every((m) => m === "20+" || /^\d+$/.test(m))).toBe(true);
    const ranks = marks.filter((m) => m !== "20+").map(Number);
    const figure = (key: string) => page.getByRole("list", { name: "Grid metrics" }).locator(`[data-metric=${key}] .rank-metric-value`).textContent();
    const solv = `${Math.round((ranks.filter((r) => r <= 3).length / 9) * 100)}%`;
    expect(await figure("solv")).toBe(solv);
    expect(await figure("arp")).toBe(ranks.length ? (ranks.reduce((a, b) => a + b, 0) / ranks.length).toFixed(1) : "—");
    await both(page, "grid-finished");

    // A second scan of the same keyword: the two side by side with the change in each metric.
    await runGrid(page);
    await expect.poll(async () => (await bands(page)).filter((b) => b === "pending").length, { timeout: 60_000, interval: 500 }).toBe(0);
    await page.getByRole("button", { name: /^Compare with the scan of/ }).click({ timeout: 60_000 });
    const compare = page.getByRole("region", { name: "Two scans side by side" });
    await compare.getByRole("table").waitFor({ timeout: 30_000 });
    expect(await compare.locator(".rank-map").count()).toBe(2);
    await both(page, "grid-compared");

    // The share link, signed out on a phone.
    const shareHref = await page.evaluate(() => {
      const copy = document.querySelector<HTMLElement>("[data-copy]");
      return copy?.dataset.copy ?? null;
    });
    expect(shareHref).toMatch(/\/shared\/grids\/[0-9a-f]{32}$/);
    const phone = await newPage(browser(), 375);
    await phone.page.goto(new URL(shareHref!).pathname);
    await phone.page.getByRole("heading", { level: 1, name: "Joe's Plumbing" }).waitFor({ timeout: 30_000 });
    expect(await phone.page.locator(".rank-point").count()).toBe(9);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await both(phone.page, "grid-shared");
    await phone.context.close();

    // The tracker: add a keyword and see its first check land.
    await page.goto("/tools/local-rank-tracker");
    await page.getByRole("heading", { level: 1, name: "Local Rank Tracker" }).waitFor();
    await page.getByText("0 of 3 keywords").waitFor({ timeout: 30_000 });
    await page.getByRole("textbox", { name: "Keyword" }).fill("emergency plumbing");
    await page.getByRole("button", { name: "Track keyword" }).click();
    const row = page.getByRole("list", { name: "Tracked keywords" }).getByRole("listitem").first();
    await row.getByRole("link", { name: "emergency plumbing" }).waitFor({ timeout: 30_000 });
    // Its first check lands: a position instead of "First check under way".
    await row.getByText("First check under way").waitFor({ state: "detached", timeout: 60_000 });
    expect(await page.getByText("1 of 3 keywords").count()).toBe(1);
    await both(page, "tracker-list");

    await row.getByRole("link", { name: "emergency plumbing" }).click();
    await page.getByRole("table", { name: "Every check" }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("table", { name: "Every check" }).locator("tbody tr").count()).toBe(1);
    const now = await page.getByRole("list", { name: "Current positions" }).locator(".rank-metric-value").allTextContents();
    expect(now[0]).toMatch(/^(#\d+|Not in the top 20)$/);
    // The fake's organic results have the business's website seventh.
    expect(now[1]).toBe("#7");
    await both(page, "keyword-history");

    // The dashboard card shows the last scan's SoLV.
    await page.goto("/dashboard");
    await page.getByText(/^Last scan: SoLV \d+% for “emergency plumbing”$/).waitFor({ timeout: 30_000 });
    await context.close();
  });

  it("an admin's grid for a prospect shows in its report's Local visibility, in the app and on the shared page", async () => {
    const { email, token } = await adminSession();
    const { reportId } = await createPlumberReport(token, { phone: "(512) 555-0177", area: "Austin, TX", keyword: "emergency plumbing", description: "Drain cleaning and water heaters", generate: true });
    await scanOfReportsProspect(token, reportId, "/api/rank/grids", (prospectId) => ({ prospectId, keyword: "emergency plumbing", size: 3, radiusMiles: 2 }), 60_000);

    const { context, page } = await signedInPage(browser(), email, 1280);
    await page.goto(`/admin/reports/${reportId}`);
    const section = page.locator("#local-visibility");
    await section.getByRole("heading", { name: "Local visibility" }).waitFor({ timeout: 30_000 });
    expect(await section.locator(".rank-point").count()).toBe(9);
    expect(await section.getByRole("list", { name: "Grid metrics" }).locator("li").count()).toBe(3);
    await section.scrollIntoViewIfNeeded();
    await both(page, "report-section-admin");
    await sectionShot(section, "report-section-admin-only-1280");
    await context.close();

    // Signed out on a phone: the worker-rendered shared report has the same section.
    const phone = await newPage(browser(), 375);
    await phone.page.goto(`/shared/reports/${reportId}`);
    const shared = phone.page.locator("#local-visibility");
    await shared.getByRole("heading", { name: "Local visibility" }).waitFor({ timeout: 30_000 });
    expect(await shared.locator(".rank-point").count()).toBe(9);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await both(phone.page, "report-section-shared");
    await phone.page.setViewportSize({ width: 375, height: 900 });
    await sectionShot(shared, "report-section-shared-only-375");
    await phone.context.close();
  });
});
