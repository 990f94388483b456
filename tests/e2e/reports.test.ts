// Journey: an admin creates a report with Create & Generate against the fake AI, watches it become ready,
// copies the share link, and a signed-out visitor opens it and sees every section.
import { describe, expect, it } from "vitest";
import { REPORT_SECTION_HEADINGS } from "../fakes/report-data";
import { ensureAdmin } from "./accounts";
import { baseUrl, E2E_PASSWORD, newPage, shot, useBrowser } from "./browser";

const PASSWORD = E2E_PASSWORD;
const PHONE = "(512) 555-0177";

const browser = useBrowser();

describe("SEO reports", () => {
  it("Create & Generate → ready → share link → public page with every section", async () => {
    const email = await ensureAdmin();
    const password = PASSWORD;
    const { context, page } = await newPage(browser());
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });

    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: /sign in/i }).click();
    await page.waitForURL("**/dashboard");

    await page.goto("/admin/new-report");
    await page.getByRole("heading", { name: "Create New Report" }).waitFor();
    const name = `Harbor Light Roofing ${Date.now().toString(36)}`;
    await page.getByLabel("Business Name").fill(name);
    await page.getByLabel("Company Name").fill("Harbor Light LLC");
    await page.getByLabel("Business Phone").fill(PHONE);
    await page.getByLabel("Business Category").selectOption("Roofing");
    await page.getByLabel("Business Location").fill("Tampa, FL");
    await page.getByLabel("Target Keyword").fill("roofer tampa");
    await page.getByLabel("Business Description").fill("Roof repair and storm damage restoration");
    await page.getByRole("button", { name: "Create & Generate Content" }).click();

    // The generating screen lists the six kinds of content, then the report opens after 1.5 s.
    await page.getByRole("heading", { name: "Generating Content" }).waitFor();
    expect(await page.getByText("This may take up to a minute.").isVisible()).toBe(true);
    expect(await page.getByText("Educational Facebook posts").isVisible()).toBe(true);
    await shot(page, "reports-generating");
    await page.waitForURL(/\/admin\/reports\/[0-9a-f-]{36}$/);
    const reportId = page.url().split("/").pop()!;

    // The queue consumer (real local queue, fake AI) makes it ready; the page polls until then.
    const share = page.getByRole("button", { name: "Share Report" });
    await share.waitFor({ timeout: 45_000 });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Report for ${name} (Harbor Light LLC)`);
    expect(await page.getByText("Template content").count()).toBe(0);
    for (const heading of ["SEO Potential Analysis", "Google Ads Analysis", "SEO Meta Tags Analysis", "Educational Facebook Posts"]) {
      expect(await page.getByRole("heading", { name: heading }).isVisible()).toBe(true);
    }
    await share.click();
    await page.getByText("Link copied to clipboard!").waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${baseUrl()}/shared/reports/${reportId}`);
    await shot(page, "reports-admin");
    await context.close();

    // A fresh, signed-out browser.
    const visitor = await newPage(browser(), 375);
    const res = await visitor.page.goto(link);
    expect(res?.ok()).toBe(true);
    await visitor.page.getByRole("heading", { level: 1, name }).waitFor();
    const overview = visitor.page.getByRole("navigation", { name: "Report overview" });
    expect(await overview.getByRole("link").count()).toBe(6);
    for (const heading of REPORT_SECTION_HEADINGS) {
      expect(await visitor.page.getByRole("heading", { level: 2, name: heading }).count()).toBe(1);
    }
    expect(await visitor.page.getByText("Business Relevance").isVisible()).toBe(true);
    expect(await visitor.page.getByText(/\d+ likes/).count()).toBe(3);
    expect(await visitor.page.getByText(/^Generated on [A-Z][a-z]+ \d{1,2}, \d{4}$/).isVisible()).toBe(true);
    const text = await visitor.page.locator("body").innerText();
    expect(text).not.toContain("555-0177");
    expect(text).not.toContain("5125550177");

    // An overview card scrolls to its section.
    await overview.getByRole("link", { name: /Facebook Posts/ }).click();
    await visitor.page.waitForFunction(() => location.hash === "#facebook-posts");
    // Smooth scrolling: wait until the section has reached the top of the viewport.
    await visitor.page.waitForFunction(
      () => Math.abs(document.getElementById("facebook-posts")!.getBoundingClientRect().top) < 120,
      undefined,
      { timeout: 5000 },
    );
    await shot(visitor.page, "reports-shared-375");

    // A report that does not exist.
    await visitor.page.goto("/shared/reports/00000000-0000-4000-8000-000000000000");
    await visitor.page.getByRole("heading", { name: "Report Not Found" }).waitFor();
    expect(await visitor.page.getByRole("link", { name: "Go to Homepage" }).getAttribute("href")).toBe("/");
    await visitor.context.close();
  });
});
