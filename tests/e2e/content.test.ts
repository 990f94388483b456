// Journeys of the content suite (issue 20) in Chromium against the fake AI: a GMB offer is generated and its Schedule
// link opens the scheduler with it; a month's plan is generated, a day is moved (by button and by drag), exported as
// ICS (file and subscription URL); the social post and video script generators each give a result, the teleprompter
// opens. Screenshots at 375 and 1280 px go to SHOTS_DIR when it is set.
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { confirmedAccount, accessToken, signedInPage, saveProfile } from "./accounts";
import { baseUrl, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

/** A business with its profile filled, signed in in a fresh window of the given width. */
async function business(width = 1280): Promise<{ page: Page; email: string }> {
  const email = uniqueEmail("content");
  const { token } = await confirmedAccount(email, "10.79.0.1");
  await saveProfile(token, { company_name: "Cedar Ridge Roofing", company_category: "Roofing", company_location: "Denver, CO", company_description: "Roof repairs and replacements since 2006." });
  const { page } = await signedInPage(browser(), email, width);
  return { page, email };
}

/** The same screen at phone width, for the 375 px screenshot. */
async function phoneShot(email: string, path: string, name: string, open: (page: Page) => Promise<void>, fullPage = true) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  const { page, context } = await signedInPage(browser(), email, 375);
  await page.goto(path);
  await open(page);
  if (fullPage) await shot(page, name);
  else await page.screenshot({ path: `${dir}/${name}.png` });
  await context.close();
}

describe("the content suite", () => {
  it("generates a GMB offer, previews it as on Google, and its Schedule link opens the scheduler with it", async () => {
    const { page, email } = await business();
    await page.goto("/tools/gmb-post-generator");
    await page.getByRole("heading", { name: "No Post Generated Yet" }).waitFor();
    await page.getByRole("button", { name: "Offer", exact: true }).click();
    await page.getByLabel("What is it about?").fill("Free gutter check with every roof inspection");
    await page.getByLabel("Offer title").fill("Free gutter check");
    await page.getByLabel("Coupon code").fill("GUTTER26");
    await page.getByLabel("Start date").fill("2026-12-01");
    await page.getByLabel("End date").fill("2026-12-20");
    await page.getByLabel("Button", { exact: true }).selectOption("BOOK");
    await page.getByLabel("Button link").fill("https://cedarridge.example/book");
    await page.getByRole("button", { name: "Generate GMB Post" }).click();

    const preview = page.getByRole("article", { name: "Google listing preview" });
    await preview.waitFor();
    expect(await preview.getByText("GUTTER26").isVisible()).toBe(true);
    expect(await preview.getByText("Free gutter check", { exact: true }).isVisible()).toBe(true);
    expect(await preview.getByText("Book", { exact: true }).isVisible()).toBe(true);
    expect(await preview.locator(".post-content").textContent()).toContain("Cedar Ridge Roofing");
    await page.getByRole("heading", { name: "Recent" }).waitFor();
    await page.getByRole("button", { name: /^Open Offer: Free gutter check/ }).waitFor();
    await shot(page, "gmb-post-generator-1280");

    const schedule = page.getByRole("link", { name: "Schedule", exact: true });
    const href = await schedule.getAttribute("href");
    expect(href).toMatch(/^\/tools\/gmb-post-scheduler\?content=[0-9a-f-]{36}$/);
    // The item the scheduler opens is there for its owner.
    const id = href!.split("=")[1]!;
    const token = await accessToken(email);
    const item = await fetch(`${baseUrl()}/api/content/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await item.json()) as { item: { result: { offer: { couponCode: string } } } }).item.result.offer.couponCode).toBe("GUTTER26");
    await schedule.click();
    await page.waitForURL(`**/tools/gmb-post-scheduler?content=${id}`);

    await phoneShot(email, "/tools/gmb-post-generator", "gmb-post-generator-375", async (p) => {
      await p.getByRole("button", { name: /^Open Offer: Free gutter check/ }).click();
      await p.getByRole("article", { name: "Google listing preview" }).waitFor();
    });
  });

  it("generates a month's plan, moves a day by button and by drag, and exports ICS", async () => {
    const { page, email } = await business();
    await page.goto("/tools/social-plan");
    await page.getByRole("heading", { name: "No Plan Generated Yet" }).waitFor();
    await page.getByLabel("Month").fill("2026-12");
    await page.getByLabel("Posts per week").selectOption("3");
    await page.getByRole("button", { name: "Generate Plan" }).click();
    const calendar = page.locator("table.plan-month");
    await calendar.waitFor();
    // December 2026, three posts a week: Mon/Wed/Fri, the first on Wednesday the 2nd.
    expect(await page.locator(".plan-post").count()).toBe(13);
    expect(await calendar.locator('td[data-date="2026-12-02"] .plan-post').count()).toBe(1);

    // The keyboard's way: 'a day later' moves the 2nd's post to the 3rd, and it is saved.
    await page.getByRole("button", { name: "Move Dec 2, 2026 post a day later" }).click();
    await calendar.locator('td[data-date="2026-12-03"] .plan-post').waitFor();
    expect(await calendar.locator('td[data-date="2026-12-02"] .plan-post').count()).toBe(0);

    // Drag the 4th's post to the 8th.
    await calendar.locator('td[data-date="2026-12-04"] .plan-post').dragTo(calendar.locator('td[data-date="2026-12-08"]'));
    await calendar.locator('td[data-date="2026-12-08"] .plan-post').waitFor();
    expect(await calendar.locator('td[data-date="2026-12-04"] .plan-post').count()).toBe(0);
    await shot(page, "social-plan-month-1280");

    // Saved: a reload's Recent opens the plan with both moves.
    await page.reload();
    await page.getByRole("button", { name: /^Open December 2026/ }).click();
    await calendar.locator('td[data-date="2026-12-08"] .plan-post').waitFor();
    expect(await calendar.locator('td[data-date="2026-12-03"] .plan-post').count()).toBe(1);

    // Export ICS: the file holds one event per post, the moved ones on their new days.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export ICS" }).click()]);
    const ics = await readFile((await download.path())!, "utf8");
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(13);
    expect(ics).toContain("DTSTART;VALUE=DATE:20261208");
    expect(ics).not.toContain("DTSTART;VALUE=DATE:20261202");

    // The subscription URL serves the same calendar without signing in.
    await page.getByRole("button", { name: "Calendar link" }).click();
    const url = (await page.locator(".plan-url").textContent())!.trim();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const feed = await fetch(`${baseUrl()}${new URL(url).pathname}`);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect((await feed.text()).match(/BEGIN:VEVENT/g)).toHaveLength(13);

    // A day opens in its generator.
    await page.getByRole("tab", { name: "List" }).click();
    await shot(page, "social-plan-list-1280");
    const open = page.getByRole("link", { name: /post in the generator$/ }).first();
    expect(await open.getAttribute("href")).toMatch(/^\/tools\/(gmb-post-generator\?topic=|social-post-generator\?idea=)/);

    await phoneShot(email, "/tools/social-plan", "social-plan-month-375", async (p) => {
      await p.getByRole("button", { name: /^Open December 2026/ }).click();
      await p.locator("table.plan-month").waitFor();
    });
    await phoneShot(email, "/tools/social-plan", "social-plan-list-375", async (p) => {
      await p.getByRole("button", { name: /^Open December 2026/ }).click();
      await p.getByRole("tab", { name: "List" }).click();
      await p.locator(".plan-list").waitFor();
    });
  });

  it("writes a post per network within its limits, and a video script with a teleprompter", async () => {
    const { page, email } = await business();
    await page.goto("/tools/social-post-generator");
    await page.getByLabel("Your idea").fill("We just replaced a hail-damaged roof in Highlands Ranch");
    await page.getByLabel("X", { exact: true }).check();
    await page.getByLabel("LinkedIn").check();
    await page.getByRole("button", { name: "Generate Posts" }).click();
    for (const network of ["Facebook", "Instagram", "LinkedIn", "X", "Google Business"]) {
      await page.getByRole("article", { name: `${network} post` }).waitFor();
    }
    await page.getByRole("button", { name: "Copy X" }).waitFor();
    await shot(page, "social-post-generator-1280");
    await phoneShot(email, "/tools/social-post-generator", "social-post-generator-375", async (p) => {
      await p.getByRole("button", { name: /^Open We just replaced/ }).click();
      await p.getByRole("article", { name: "X post" }).waitFor();
    });

    await page.goto("/tools/video-script-generator");
    await page.getByLabel("What is the video about?").fill("Three signs of hail damage");
    await page.getByRole("button", { name: "60 s" }).click();
    await page.getByRole("button", { name: "Generate Script" }).click();
    await page.getByText(/About \d+ s spoken · 60 s video/).waitFor();
    expect(await page.getByText("Hook · first 3 s").isVisible()).toBe(true);
    await shot(page, "video-script-generator-1280");
    await page.getByRole("button", { name: "Teleprompter" }).click();
    const prompter = page.getByRole("dialog", { name: /Three signs of hail damage/ });
    await prompter.waitFor();
    await prompter.getByLabel("Speed").fill("80");
    // The teleprompter covers the window: a window-sized picture, not the whole page.
    if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/teleprompter-1280.png` });
    await page.keyboard.press("Escape");
    await prompter.waitFor({ state: "detached" });
    await phoneShot(email, "/tools/video-script-generator", "video-script-generator-375", async (p) => {
      await p.getByRole("button", { name: /^Open 60s/ }).click();
      await p.getByText(/About \d+ s spoken/).waitFor();
    });
    await phoneShot(email, "/tools/video-script-generator", "teleprompter-375", async (p) => {
      await p.getByRole("button", { name: /^Open 60s/ }).click();
      await p.getByRole("button", { name: "Teleprompter" }).click();
      await p.getByRole("dialog").waitFor();
    }, false);
  });
});
