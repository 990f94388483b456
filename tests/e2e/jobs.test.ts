// Journey: a report whose AI calls keep failing shows on the Jobs panel with its attempts and last error,
// ends on template content, and "Regenerate" puts it back on the queue.
import { describe, expect, it } from "vitest";
import { adminSession, createReport, signedInPage } from "./accounts";
import { shot, useBrowser } from "./browser";

const browser = useBrowser();

describe("Jobs panel", () => {
  it("failing AI → queued with the last error → template content → Regenerate", async () => {
    const { email, token } = await adminSession();
    const name = `Stormline Gutters ${Date.now().toString(36)}`;
    await createReport(token, {
      name,
      company_name: "Stormline LLC",
      phone: "(813) 555-0123",
      description: "Gutter cleaning and repair [fake:500]",
      area: "Tampa, FL",
      keyword: "gutters tampa",
      category: "Roofing",
      generate: true,
    });

    const { context, page } = await signedInPage(browser(), email);
    await page.goto("/admin/report-generator");
    await page.getByRole("link", { name: "Jobs" }).click();
    await page.getByRole("heading", { level: 1, name: "Jobs" }).waitFor();
    const row = page.locator("tr", { hasText: name });
    // Retried with backoff (1, 2, 4, 8 s here), each failure recorded.
    await row.getByText(/API request failed: 500/).waitFor({ timeout: 20_000 });
    await shot(page, "jobs-retrying-1280");
    // The last attempt saves template content; the panel polls until nothing is in progress.
    await row.getByLabel("Report: Ready (template)").waitFor({ timeout: 45_000 });
    expect(await row.getByText("5 / 5").isVisible()).toBe(true);
    await shot(page, "jobs-template-1280");

    await row.getByRole("button", { name: "Regenerate" }).click();
    await page.getByText(`Queued "${name}" for generation`).waitFor();
    expect(await row.getByRole("button", { name: "Regenerate" }).count()).toBe(0);
    await context.close();

    const phone = await signedInPage(browser(), email, 375);
    await phone.page.goto("/admin/report-generator/jobs");
    await phone.page.getByText(name).waitFor();
    await shot(phone.page, "jobs-375");
    await phone.context.close();
  }, 90_000);
});
