// Journeys of the search tools, the landing page, subscription and the live chat widget, in Chromium.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { confirmAddress } from "./accounts";
import { E2E_STRIPE } from "./global-setup";
import { E2E_PASSWORD, newPage, searchButton, shot, uniqueEmail, useBrowser } from "./browser";
import { DASHBOARD_GROUPS, DASHBOARD_TOOLS } from "../web/dashboard-tools";

const WIDGET = "#fake-chat-widget";
const browser = useBrowser();

async function signUp(page: Page, email = uniqueEmail("tools")) {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL(/\/dashboard$/, { timeout: 10_000 });
  // Paid features need the confirmed address (issue 39): the mailed link is opened, and the page reads the profile again.
  await confirmAddress(email);
  await page.reload();
  return email;
}

describe("the landing page", () => {
  it("loads none of the app's code, makes no API request, and its links and phone menu work at 375 px", async () => {
    const { context, page } = await newPage(browser(), 375);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });

    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.locator(WIDGET).waitFor();
    await shot(page, "landing-375");
    expect(requests.filter((p) => p.startsWith("/api/") || p.startsWith("/auth/"))).toEqual([]);
    // The app shell's entry (index-*.js) and its vendor chunks never load on the landing page.
    const scripts = requests.filter((p) => p.endsWith(".js") && p.startsWith("/assets/"));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((p) => /\/(index|chunk|auth-client|api|rpc)-/.test(p))).toEqual([]);

    const menu = page.locator("#landing-menu");
    const toggle = page.getByRole("button", { name: "Open menu" });
    expect(await menu.isVisible()).toBe(false);
    await toggle.click();
    expect(await menu.isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
    await shot(page, "landing-375-menu");
    for (const name of ["Roadmap", "How It Works", "Pricing", "FAQ", "Login", "Ask for a Free Custom AI"]) {
      expect(await menu.getByRole("link", { name }).isVisible()).toBe(true);
    }
    // An in-page link scrolls to its section and closes the menu.
    await menu.getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL(/#pricing$/);
    expect(await menu.isVisible()).toBe(false);
    await page.waitForFunction(() => {
      const top = document.getElementById("pricing")!.getBoundingClientRect().top;
      return Math.abs(top) < 40;
    });
    // Escape closes an open menu too.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.keyboard.press("Escape");
    expect(await menu.isVisible()).toBe(false);

    expect(await page.getByText("$97").count()).toBeGreaterThan(0);
    expect(await page.getByText("Talk with Sales").count()).toBeGreaterThan(0);
    expect(await page.locator(".lp-faq details").count()).toBe(5);
    expect(await page.locator("#how-it-works .feature").count()).toBe(9);

    await page.getByRole("link", { name: "Try Our AI Tools Free" }).last().click();
    await page.waitForURL(/\/signup$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("looks finished at 1280 px", async () => {
    const { context, page } = await newPage(browser(), 1280);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.locator("#landing-menu").getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    await shot(page, "landing-1280");
    await context.close();
  });
});

describe("the live chat widget", () => {
  it("is absent on /login and /signup and present on the dashboard, allowed by the CSP", async () => {
    const { context, page } = await newPage(browser());
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.goto("/login");
    await page.getByLabel("Email").waitFor();
    expect(await page.locator("script[data-chat-widget]").count()).toBe(0);
    expect(await page.locator(WIDGET).count()).toBe(0);

    await signUp(page);
    await page.locator(WIDGET).waitFor();
    expect(await page.locator(WIDGET).isVisible()).toBe(true);
    // Its stylesheet, from its own origin, applied: the CSP lets that origin in.
    await page.waitForFunction((sel) => getComputedStyle(document.querySelector(sel)!).position === "fixed", WIDGET);
    await shot(page, "dashboard-widget-1280");

    // Signing out goes back to /login: the widget is hidden there again.
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.waitForURL(/\/login$/);
    // The address changes first; the widget is hidden once the sign-in screen has rendered.
    await page.locator(WIDGET).waitFor({ state: "hidden" });
    expect(await page.locator(WIDGET).isVisible()).toBe(false);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});

describe("search tools", () => {
  /** A new user on a tool's page, copying allowed. */
  async function signedUpAt(path: string, width: number) {
    const { context, page } = await newPage(browser(), width);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signUp(page);
    await page.goto(path);
    return { context, page };
  }

  it("searches on the server, shows live results, and falls back to sample data with the banner", async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await signedUpAt("/tools/google-results", width);
      // A neutral start before the first search: what the tool does, not a failed search.
      await page.getByRole("heading", { name: "See who ranks on Google" }).waitFor();
      expect(await page.getByText("No Search Results Found").count()).toBe(0);
      expect(await page.getByRole("main").getByRole("button", { name: "Try Restaurant" }).isVisible()).toBe(true);
      await shot(page, `google-results-empty-${width}`);

      await searchButton(page).click();
      await page.getByText("Please enter both a keyword and location").waitFor();

      await page.getByLabel("Search Keyword").fill("plumber");
      await page.getByLabel("Location").fill("Austin, TX");
      await searchButton(page).click();
      await page.getByRole("link", { name: "plumber in Austin, TX - Result 1" }).waitFor();
      expect(await page.getByText("Using Sample Data").count()).toBe(0);
      await shot(page, `google-results-live-${width}`);

      await page.getByLabel("Search Keyword").fill("plumber fail500");
      await searchButton(page).click();
      await page.getByText("Using Sample Data").waitFor();
      await page.getByText("Unable to fetch results. Showing sample data instead.").waitFor();
      expect(await page.locator(".result-card").count()).toBe(5);
      // A customer reads the spec's warning, never the provider's failure; every sample card says it is an example.
      expect(await page.getByText(/SERP API|server/).count()).toBe(0);
      expect(await page.locator(".result-card").getByText("Example", { exact: true }).count()).toBe(5);
      // The copy icon until copied, then the check mark only (the copy buttons' styles reach this page too).
      const copyLink = page.getByRole("button", { name: "Copy Link" }).first();
      expect([await copyLink.locator(".report-copy-idle").isVisible(), await copyLink.locator(".report-copy-done").isVisible()]).toEqual([true, false]);
      await copyLink.click();
      const copied = page.getByRole("button", { name: "Copied!" });
      await copied.waitFor();
      expect([await copied.locator(".report-copy-idle").isVisible(), await copied.locator(".report-copy-done").isVisible()]).toEqual([false, true]);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^https:\/\//);
      await shot(page, `google-results-sample-${width}`);

      await page.getByLabel("Search Keyword").fill("empty");
      await searchButton(page).click();
      await page.getByText("No results found for this keyword and location combination.", { exact: false }).waitFor();
      await page.getByRole("button", { name: "Try Restaurant" }).click();
      await page.getByRole("link", { name: /^Restaurant in Austin, TX - Result 1$/ }).waitFor();
      await context.close();
    }
  });

  it("builds local-services samples and copies name, details and all info", async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await signedUpAt("/tools/google-ads-analyzer", width);
      expect(await page.getByLabel("Business Type").inputValue()).toBe("Coffee");
      expect(await page.getByLabel("Location").inputValue()).toBe("New York, NY, United States");
      await page.getByRole("heading", { name: "See how local businesses show up on Google" }).waitFor();
      expect(await page.getByText("No Local Services Found").count()).toBe(0);
      await shot(page, `local-services-empty-${width}`);
      await page.getByRole("button", { name: "Analyze" }).click();
      await page.getByText("Using Sample Data").waitFor();
      const cards = page.locator(".result-card");
      expect(await cards.count()).toBe(5);
      // Nobody takes a sample for a business to call: each is tagged, each number is from the fictional 555-01xx range.
      expect(await cards.getByText("Example", { exact: true }).count()).toBe(5);
      const phones = await cards.locator(".result-card-facts").allTextContents();
      expect(phones.map((t) => /\(\d{3}\) 555-01\d{2}/.test(t))).toEqual([true, true, true, true, true]);
      const first = cards.first();
      const title = (await first.locator(".result-card-title").textContent())!;
      const description = (await first.locator(".result-card-text").textContent())!;
      expect(await first.getByRole("link", { name: "Search on Google Maps" }).getAttribute("href")).toMatch(
        /^https:\/\/www\.google\.com\/maps\/search\//,
      );

      const clip = () => page.evaluate(() => navigator.clipboard.readText());
      await first.getByRole("button", { name: "Copy Name" }).click();
      await first.getByRole("button", { name: "Copied!" }).waitFor();
      expect(await clip()).toBe(title);
      await first.getByRole("button", { name: "Copy Details" }).click();
      expect(await clip()).toBe(description);
      await first.getByRole("button", { name: "Copy All Info" }).click();
      const all = (await clip()).split("\n");
      expect(all).toHaveLength(3);
      expect(all[0]).toBe(title);
      expect(all[2]).toBe(description);
      await shot(page, `local-services-results-${width}`);

      await page.getByLabel("Business Type").fill("Plumber");
      await page.getByRole("button", { name: "Analyze" }).click();
      await page.getByText("Google Guaranteed").first().waitFor();
      await context.close();
    }
  });
});

describe("a new customer's first minutes", () => {
  it("is welcomed, finds the working tools on the dashboard and in the sidebar's Search group, and every page has one <title>", async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await newPage(browser(), width);
      const titles = () => page.evaluate(() => Array.from(document.head.querySelectorAll("title"), (t) => t.textContent));
      await signUp(page);
      const welcome = await page.getByRole("heading", { level: 1 }).textContent();
      expect(welcome).toMatch(/^Welcome, /);

      // Every tool of the spec's dashboard works now (issues 18, 19 and 20): the dashboard shows them in their groups.
      const main = page.getByRole("main");
      const cards = main.locator(".tool-card");
      expect(await main.getByRole("heading", { level: 2 }).allTextContents()).toEqual(DASHBOARD_GROUPS);
      expect(await cards.locator("h3").allTextContents()).toEqual(DASHBOARD_TOOLS);
      expect(await main.getByText("Coming Soon", { exact: true }).count()).toBe(0);
      expect(await titles()).toEqual(["Dashboard · Porchlight"]);
      await shot(page, `dashboard-new-user-${width}`);

      await cards.filter({ hasText: "Google Search Results" }).getByRole("link", { name: "Open tool" }).click();
      await page.waitForURL(/\/tools\/google-results$/);
      await page.getByRole("heading", { level: 1, name: "Google Search Results" }).waitFor();
      expect(await titles()).toEqual(["Google Search Results · Porchlight"]);

      // The sidebar's Search group (after Content and Social) is open on a search tool and leads to the other one.
      if (width < 500) await page.getByRole("button", { name: "Open menu" }).click();
      const sidebar = page.locator("#app-sidebar");
      const toggles = sidebar.locator(".nav-group-toggle");
      expect(await toggles.allTextContents()).toEqual(["Content", "Social", "Search", "Reputation"]);
      const search = sidebar.getByRole("button", { name: "Search", exact: true });
      expect(await search.getAttribute("aria-expanded")).toBe("true");
      if (width < 500) {
        // The drawer slides in: shoot it once its transition has finished.
        await sidebar.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
        await shot(page, `sidebar-search-group-${width}`);
      }
      await sidebar.getByRole("link", { name: "Local Services Analyzer" }).click();
      await page.waitForURL(/\/tools\/google-ads-analyzer$/);
      await page.getByRole("heading", { level: 1, name: "Google Local Services Analyzer" }).waitFor();
      expect(await titles()).toEqual(["Google Local Services Analyzer · Porchlight"]);

      // The last placeholder is a tool now (issue 27): it names itself and leads back.
      await page.goto("/tools/citation-tracker");
      await page.getByRole("heading", { level: 1, name: "Citation Tracker" }).waitFor();
      expect(await page.getByText("This tool will be implemented soon").count()).toBe(0);
      expect(await titles()).toEqual(["Citation Tracker · Porchlight"]);
      await shot(page, `citation-tracker-${width}`);
      await page.getByRole("link", { name: "Back to Dashboard" }).click();
      await page.waitForURL(/\/dashboard$/);

      await page.goto("/usage");
      await page.getByRole("heading", { level: 2, name: "Your usage" }).waitFor();
      expect(await page.getByRole("heading", { name: "AI Usage", exact: true }).count()).toBe(1);
      expect(await titles()).toEqual(["AI Usage · Porchlight"]);
      await shot(page, `usage-new-user-${width}`);
      await context.close();
    }
  });
});

describe("subscription", () => {
  it("sends Subscribe Now to the configured payment link with the user's id and email, and shows the plan", async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await newPage(browser(), width);
      const email = await signUp(page);
      const userId = await page.evaluate(() => {
        for (let i = 0; i < localStorage.length; i++) {
          const v = localStorage.getItem(localStorage.key(i)!) ?? "";
          const m = /"user":\{[^}]*?"id":"([^"]+)"/.exec(v);
          if (m) return m[1];
        }
        return null;
      });
      await page.goto("/subscription");
      const subscribe = page.getByRole("link", { name: "Subscribe Now" });
      await subscribe.waitFor();
      const monthly = new URL((await subscribe.getAttribute("href"))!);
      expect(`${monthly.origin}${monthly.pathname}`).toBe(E2E_STRIPE.monthly);
      expect(monthly.searchParams.get("client_reference_id")).toBe(userId);
      expect(monthly.searchParams.get("prefilled_email")).toBe(email);
      expect(await page.getByText("$97").isVisible()).toBe(true);
      await shot(page, `subscription-monthly-${width}`);

      await page.getByRole("button", { name: "Annual" }).click();
      await page.getByText("$970").waitFor();
      const annual = new URL((await page.getByRole("link", { name: "Subscribe Now" }).getAttribute("href"))!);
      expect(`${annual.origin}${annual.pathname}`).toBe(E2E_STRIPE.annual);
      expect(annual.searchParams.get("client_reference_id")).toBe(userId);

      const manage = page.getByRole("link", { name: "Manage Subscription" });
      expect(await manage.getAttribute("href")).toBe(E2E_STRIPE.portal);
      expect(await manage.getAttribute("target")).toBe("_blank");
      await shot(page, `subscription-annual-${width}`);
      if (width === 1280) {
        expect(await page.getByTestId("sidebar-plan").textContent()).toBe("Free");
      }
      await context.close();
    }
  });
});
