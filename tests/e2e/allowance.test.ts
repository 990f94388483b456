// The monthly AI allowance in Chromium: a Free user whose administrator set a $0.03 budget runs live searches
// ($0.015 each, metered); Subscription and the usage screen show it half used, then used up, say why tools use
// their fallback, and offer the upgrade. Screens at 375 px and 1280 px (SHOTS_DIR).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { confirmedAccount, adminSession, signedInPage } from "./accounts";
import { baseUrl, shot, uniqueEmail, useBrowser } from "./browser";

const browser = useBrowser();

async function shotBoth(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
    // Only for a picture (SHOTS_DIR): without one there is nothing to wait for.
    if (process.env.SHOTS_DIR) await page.waitForTimeout(350);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function liveSearch(token: string, keyword: string) {
  const res = await fetch(`${baseUrl()}/api/tools/google-results?keyword=${encodeURIComponent(keyword)}&location=Austin`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { sample: boolean; error: string | null };
}

/** Waits until the usage queue has logged `count` calls, so the screen's stat cards agree with the allowance. */
async function usageLogged(token: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${baseUrl()}/api/usage`, { headers: { Authorization: `Bearer ${token}` } });
    if (((await res.json()) as { stats: { totalUsage: number } }).stats.totalUsage >= count) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the usage queue did not log ${count} calls`);
}

describe("the monthly AI allowance", () => {
  it("shows used, left and the renewal day; past it, says why and offers the upgrade", async () => {
    const email = uniqueEmail("allowance");
    const { id: userId, token } = await confirmedAccount(email, "10.77.3.1");
    const admin = await adminSession();
    const budget = await fetch(`${baseUrl()}/api/admin/users/${userId}/budget`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ monthly_usd: 0.03 }),
    });
    expect(budget.status).toBe(200);

    expect((await liveSearch(token, `allowance half ${userId}`)).sample).toBe(false);
    // The allowance counts at once (the meter); the usage log follows through its queue.
    await usageLogged(token, 1);
    const { page } = await signedInPage(browser(), email);
    await page.goto("/subscription");
    const meter = page.getByTestId("allowance");
    await meter.getByText("$0.02 of $0.03").waitFor();
    expect(await meter.getByRole("meter").getAttribute("aria-valuenow")).toBe("0.015");
    await shotBoth(page, "subscription-allowance-half");
    await page.goto("/usage");
    await page.getByTestId("allowance").getByText("Set by your administrator").waitFor();
    await shotBoth(page, "usage-allowance-half");

    // The second search uses the rest; the third is refused by the meter and answers sample data, saying why.
    expect((await liveSearch(token, `allowance full ${userId}`)).sample).toBe(false);
    const refused = await liveSearch(token, `allowance over ${userId}`);
    expect(refused.sample).toBe(true);
    expect(refused.error).toMatch(/^You have used your monthly AI budget of \$0\.03\./);
    await usageLogged(token, 2);

    await page.goto("/usage");
    const full = page.getByTestId("allowance");
    await full.getByText(/You have used your monthly AI budget of \$0\.03/).waitFor();
    await shotBoth(page, "usage-allowance-full");
    await page.goto("/subscription");
    await page.getByTestId("allowance").getByText(/AI features are paused until/).waitFor();
    await shotBoth(page, "subscription-allowance-full");
  });

  it("offers a Free user whose plan allowance is used the upgrade", async () => {
    const email = uniqueEmail("allowance-free");
    const { token } = await confirmedAccount(email, "10.77.3.2");
    // $1 of searches at $0.015: 66 fit ($0.99), the 67th is refused.
    let refused = false;
    for (let i = 0; i < 70 && !refused; i++) refused = (await liveSearch(token, `free plan ${email} ${i}`)).sample;
    expect(refused).toBe(true);
    await usageLogged(token, 66);
    const { page } = await signedInPage(browser(), email, 375);
    await page.goto("/usage");
    const upgrade = page.getByTestId("allowance").getByRole("link", { name: "Upgrade to Self Service" });
    await upgrade.waitFor();
    await shotBoth(page, "usage-allowance-free-over");
    await upgrade.click();
    await page.waitForURL("**/subscription");
  });
});
