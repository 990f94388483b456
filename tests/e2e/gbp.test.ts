// Journey: a business connects the fake Google Business Profile, picks a location, schedules a post that the cron and
// the gbp-posts queue publish and Google's review turns LIVE; a post Google rejects shows why; a refused token asks for
// a reconnect; without Google set up, Integrations explains the set-up.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { baseUrl, newPage, shot, uniqueEmail, useBrowser } from "./browser";
import { runCron } from "./dev-server";
import { signIn, signUpAndIn, signedInPage, signedUpPage } from "./accounts";

const browser = useBrowser();

/** Writes a post in the scheduler's form for the current minute (the browser's clock and zone) and schedules it. */
async function scheduleNow(page: Page, text: string) {
  const form = page.locator("form.schedule-form").first();
  await form.getByLabel("Post text").fill(text);
  const now = await page.evaluate(() => {
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, "0");
    return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` };
  });
  await form.getByLabel("Date").fill(now.date);
  await form.getByLabel("Time").fill(now.time);
  await form.getByRole("button", { name: "Schedule post" }).click();
  const done = page.getByText("Post scheduled: it goes to Google at its time.");
  const refused = form.locator(".field-error").first();
  await done.or(refused).first().waitFor();
  if (await refused.isVisible()) throw new Error(`scheduling refused: ${await refused.textContent()}`);
  await item(page, text).waitFor();
}

function item(page: Page, text: string) {
  return page.locator("li.schedule-item", { hasText: text });
}

describe("Google Business Profile", () => {
  it("connect → pick a location → schedule → the cron publishes it → LIVE; a rejected post says why; a refused token asks to reconnect", async () => {
    const email = uniqueEmail("gbp");
    const { context, page } = await signedUpPage(browser(), email, "10.79.0.1");
    await page.goto("/integrations");
    await page.getByRole("heading", { level: 1, name: "Integrations" }).waitFor();
    await page.getByText("Not connected", { exact: true }).waitFor();
    await shot(page, "integrations-not-connected-1280");

    // A consent link started in this browser and opened in another one (someone sent it on) connects nobody there.
    await page.getByRole("button", { name: "Connect Google Business Profile" }).click();
    await page.getByRole("link", { name: "Continue as owner@example.com" }).waitFor();
    const consent = page.url();
    const other = await newPage(browser(), 375);
    await signUpAndIn(other.page, uniqueEmail("gbp-owner"), "10.79.0.2");
    await other.page.goto(consent);
    await other.page.getByRole("link", { name: "Continue as owner@example.com" }).click();
    await other.page.waitForURL("**/integrations?error=other_browser");
    await other.page.getByText("That Google sign-in was started in another browser").waitFor();
    await other.page.getByText("Not connected", { exact: true }).waitFor();
    await shot(other.page, "integrations-other-browser-375");
    await other.context.close();
    await page.goto("/integrations?error=other_browser");
    await page.getByText("That Google sign-in was started in another browser").waitFor();
    await shot(page, "integrations-other-browser-1280");
    await page.goto("/integrations");
    await page.getByText("Not connected", { exact: true }).waitFor();

    // At the fake Google's consent page, then back with the code.
    await page.getByRole("button", { name: "Connect Google Business Profile" }).click();
    await page.getByRole("link", { name: "Continue as owner@example.com" }).click();
    await page.waitForURL("**/integrations?step=locations");
    const picker = page.getByRole("group", { name: "Which locations should Porchlight post to?" });
    await picker.waitFor();
    expect(await picker.getByRole("checkbox").count()).toBe(3);
    expect(await picker.getByRole("checkbox").nth(2).isDisabled()).toBe(true);
    await picker.getByText("Ridge Roofing — Austin").click();
    await page.getByRole("button", { name: "Save locations" }).click();
    await page.getByText("Connected", { exact: true }).waitFor();
    await page.getByText("Posting to").waitFor();
    await shot(page, "integrations-connected-1280");
    const connectedPhone = await signedInPage(browser(), email, 375);
    await connectedPhone.page.goto("/integrations");
    await connectedPhone.page.getByText("Posting to").waitFor();
    await shot(connectedPhone.page, "integrations-connected-375");
    await connectedPhone.context.close();

    // Schedule a post for now; the cron sweep puts it on gbp-posts, the consumer publishes it, the review settles it.
    const live = `Free spring roof checks in Austin this week ${Date.now().toString(36)}`;
    await page.goto("/tools/gmb-post-scheduler");
    await page.getByRole("heading", { level: 1, name: "GMB Post Scheduler" }).waitFor();
    await scheduleNow(page, live);
    await item(page, live).getByText("Scheduled", { exact: true }).waitFor();
    await runCron(baseUrl());
    await page.reload();
    await item(page, live).getByText("Live", { exact: true }).waitFor({ timeout: 45_000 });
    await item(page, live).getByRole("link", { name: "View on Google" }).waitFor();
    const posts = (await (await fetch(`${inject("googleUrl")}/__posts`)).json()) as { posts: { summary: string; state: string; topicType: string }[] };
    expect(posts.posts.filter((p) => p.summary === live)).toEqual([expect.objectContaining({ state: "LIVE", topicType: "STANDARD" })]);

    // Google rejects the next one after review: the list says so, with the reason.
    const rejected = `Best roofer in town, guaranteed [gbp:reject] ${Date.now().toString(36)}`;
    await scheduleNow(page, rejected);
    await runCron(baseUrl());
    await page.reload();
    await item(page, rejected).getByText("Rejected", { exact: true }).waitFor({ timeout: 45_000 });
    await item(page, rejected).getByText(/Why: Google rejected this post after review/).waitFor();
    await shot(page, "scheduler-live-rejected-1280");

    // The person removes the app's access at Google: the next post is refused and the app asks for a reconnect.
    await fetch(`${inject("googleUrl")}/__revoke-all`, { method: "POST" });
    const waiting = `Gutter cleaning slots open ${Date.now().toString(36)}`;
    await scheduleNow(page, waiting);
    await runCron(baseUrl());
    await page.reload();
    await item(page, waiting).getByText(/Google refused the connection: reconnect/).waitFor({ timeout: 45_000 });
    await page.getByRole("link", { name: "Reconnect on the Integrations page" }).click();
    await page.getByText("Reconnect needed", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Reconnect Google Business Profile" }).waitFor();
    await shot(page, "integrations-reconnect-1280");
    await context.close();

    // The same screens on a phone.
    const phone = await signedInPage(browser(), email, 375);
    await phone.page.goto("/tools/gmb-post-scheduler");
    await item(phone.page, live).getByText("Live", { exact: true }).waitFor();
    await shot(phone.page, "scheduler-375");
    await phone.page.goto("/integrations");
    await phone.page.getByText("Reconnect needed", { exact: true }).waitFor();
    await shot(phone.page, "integrations-reconnect-375");
    await phone.context.close();
  }, 120_000);

  it("without Google set up, Integrations says publishing isn't available yet, with no set-up steps (those are the admins')", async () => {
    const email = uniqueEmail("gbp-setup");
    for (const width of [1280, 375]) {
      const { context, page } = await newPage(browser(), width);
      if (width === 1280) await signUpAndIn(page, email, "10.79.0.2");
      else await signIn(page, email);
      // The server's answer when GOOGLE_OAUTH_CLIENT_ID is empty (tests/worker/integrations/gbp.test.ts checks the server side).
      await page.route("**/api/integrations", (route) =>
        route.fulfill({ json: { google: { status: "not_configured", canConnect: false, locations: [], available: [], lastSyncAt: null, error: null } } }),
      );
      await page.goto("/integrations");
      await page.getByText("Publishing to Google isn't available yet").waitFor();
      expect(await page.getByText("How Google must be set up").count()).toBe(0);
      expect(await page.locator("body").innerText()).not.toMatch(/Cloud Console|wrangler secret|\.dev\.vars|_SECRET\b/);
      expect(await page.getByRole("button", { name: "Connect Google Business Profile" }).count()).toBe(0);
      await shot(page, `integrations-not-configured-${width}`);
      await context.close();
    }
  });
});
