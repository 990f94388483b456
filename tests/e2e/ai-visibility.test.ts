// Journeys (issue 29): a user adds a question, scans it on every assistant (the fakes name the business in a known
// pattern), opens the answers a figure stands on and one answer, and tracks the question weekly; an admin's scan of a
// prospect shows in its shared report, signed out at 375 px, its answers one click away. The engines are the fakes built from each provider's
// documented answers (tests/fakes/ai-engines-fake.ts, the search fake for Google), scripted by markers in the question.
// Screens go to SHOTS_DIR when it is set.
import { describe, expect, it } from "vitest";
import { accessToken, adminSession, createReport, waitUntilReady, signedUpPage, saveProfile } from "./accounts";
import { baseUrl, newPage, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

const BUSINESS = "Ridge Plumbing Austin";

describe("AI Visibility", () => {
  it("a user scans a question, opens the answers behind a figure and one answer, and tracks the question", async () => {
    const email = uniqueEmail("aiv");
    const { context, page } = await signedUpPage(browser(), email, "10.78.29.1", 1280);
    const token = await accessToken(email);
    await saveProfile(token, { company_name: BUSINESS, company_location: "Austin, TX 78701", company_phone: "+1 512-555-0177", company_website: "https://ridgeplumbing.test", company_category: "Plumbing" });

    await page.goto("/tools/ai-visibility");
    await page.getByRole("heading", { level: 1, name: "AI Visibility" }).waitFor({ timeout: 30_000 });
    await page.getByRole("heading", { name: "What do AI assistants say about you?" }).waitFor();
    // The fakes list the business first in samples 1 and 3 of every 3 (pattern 101), another plumber always.
    const mark = Date.now().toString(36);
    const question = `best plumber in Austin ${mark} [aiv:names=${BUSINESS}|Desert Sun Plumbing] [aiv:pattern=101]`;
    await page.getByLabel("Add a question", { exact: true }).fill(question);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const row = page.locator("li", { hasText: mark }).first();
    await row.waitFor();
    await page.getByLabel("Answers per question and assistant", { exact: true }).fill("3");
    await page.getByText(/\$\d+\.\d\d/).first().waitFor({ timeout: 30_000 });
    await shot(page, "aiv-empty-1280");
    await page.getByRole("button", { name: "Run your first scan" }).click();

    // The scan runs through the ai-visibility queue: every assistant answers 3 times.
    await page.getByText(/Overall, AI assistants named you in/).waitFor({ timeout: 120_000 });
    await shot(page, "aiv-results-1280");
    const figure = page.locator("button.aiv-figure").first();
    await figure.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // The answers load one by one: some name the business, some do not (the pattern), none is hidden.
    await expect.poll(() => dialog.getByText("Names you", { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => dialog.getByText("Does not name you", { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await shot(page, "aiv-answers-1280");
    await dialog.getByRole("button", { name: "Read answer" }).first().click();
    await dialog.getByText(/Businesses named:/).waitFor({ timeout: 30_000 });
    await dialog.getByRole("heading", { name: "Sources cited" }).waitFor();
    await shot(page, "aiv-answer-1280");
    await dialog.getByRole("button", { name: "Close" }).click();

    // Tracked weekly: the question is kept with its flag.
    // The box follows the saved state (it ticks once the server has it).
    await row.getByLabel("Track weekly").click();
    await expect
      .poll(async () => {
        const view = (await (await fetch(`${baseUrl()}/api/ai-visibility/questions?business=own`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { questions: { text: string; tracked: boolean }[] };
        return view.questions.find((q) => q.text.includes(mark))?.tracked;
      }, { timeout: 15_000 })
      .toBe(true);

    // Every engine's figure: 2 of 3 answers name the business (samples 1 and 3).
    const scans = (await (await fetch(`${baseUrl()}/api/ai-visibility/scans?business=own`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { scans: { id: string }[] };
    const scan = (await (await fetch(`${baseUrl()}/api/ai-visibility/scans/${scans.scans[0]!.id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { status: string; figures: { engine: string; k: number; n: number; low: number; high: number }[] };
    expect(scan.status).toBe("done");
    expect(scan.figures.length).toBe(5);
    for (const f of scan.figures) expect({ engine: f.engine, k: f.k, n: f.n }).toEqual({ engine: f.engine, k: 2, n: 3 });

    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, "aiv-results-375");
    await context.close();
  });

  it("an admin's scan of a prospect shows in its shared report, signed out on a phone", async () => {
    const { token } = await adminSession();
    const reportId = await createReport(token, {
      name: "Copper Roofing Mesa",
      company_name: "Copper Roofing Mesa",
      phone: "(480) 555-0110",
      area: "Mesa, AZ",
      keyword: "roofer",
      description: "Roof repair",
      category: "Roofing",
      generate: true,
    });
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const report = (await (await fetch(`${baseUrl()}/api/reports/${reportId}`, { headers: auth })).json()) as { prospect: { id: string } };
    const started = await fetch(`${baseUrl()}/api/ai-visibility/scans`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ business: report.prospect.id, questions: ["best roofer in Mesa [aiv:names=Desert Sun Roofing]"], engines: ["chatgpt", "perplexity"], samples: 3 }),
    });
    expect(started.status, await started.clone().text()).toBe(201);
    const scanId = ((await started.json()) as { id: string }).id;
    await expect
      .poll(async () => ((await (await fetch(`${baseUrl()}/api/ai-visibility/scans/${scanId}`, { headers: auth })).json()) as { status: string }).status, { timeout: 90_000, interval: 500 })
      .toBe("done");
    await waitUntilReady(reportId);

    const phone = await newPage(browser(), 375);
    await phone.page.goto(`/shared/reports/${reportId}`);
    const section = phone.page.locator("#ai-visibility");
    await section.getByText(/What AI assistants say about/).waitFor({ timeout: 30_000 });
    expect(await section.textContent()).toMatch(/Asked 'best roofer in Mesa[^']*' 3 times, ChatGPT named Desert Sun Roofing 3 times and you 0 times/);
    // The answers behind the line, one click away for the signed-out viewer (the report's own route).
    const line = section.locator("li", { hasText: "ChatGPT named Desert Sun Roofing" }).first();
    await line.getByText("Read the 3 answers").click();
    await line.locator("[data-ai-answers-list] > li").nth(2).waitFor({ timeout: 15_000 });
    expect(await line.locator("[data-ai-answers-list] mark").first().textContent()).toBe("Desert Sun Roofing");
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await line.scrollIntoViewIfNeeded();
    await shot(phone.page, "aiv-shared-375");
    await phone.context.close();
  });
});
