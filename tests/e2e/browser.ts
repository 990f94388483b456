// Debian's Chromium through playwright-core, with the flags this closed network needs.
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { browserCandidates, DEBIAN_HEADLESS_SHELL } from "../../scripts/browser-plan";
import { isExecutable } from "../../scripts/ensure-browser";

/** The password of every account the journeys make, the shared admin (owner@agency.test) included. */
export const E2E_PASSWORD = "correct-horse-battery";

/** CHROMIUM_PATH when it is a browser, else Debian's headless shell or full Chromium (scripts/ensure-browser.ts installs the shell before the journeys). */
export const CHROMIUM = browserCandidates(process.env.CHROMIUM_PATH).find(isExecutable) ?? DEBIAN_HEADLESS_SHELL;

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/**
 * The journey file's browser: launched before its first journey, closed after its last. A getter, because the browser
 * exists only once the hook has run.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("The browser is launched in beforeAll: ask for it inside a journey or a hook.");
    return browser;
  };
}

export function baseUrl() {
  return inject("baseUrl");
}

export async function newPage(browser: Browser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width, height: width < 500 ? 812 : 900 },
  });
  // Fail fast on a stuck request so a retry starts well within the test's own limit.
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  const page = await context.newPage();
  if (process.env.E2E_TRACE) {
    const pending = new Map<unknown, string>();
    context.on("request", (r) => pending.set(r, `${r.method()} ${r.url()} @${Date.now() % 100000}`));
    context.on("requestfinished", (r) => pending.delete(r));
    context.on("requestfailed", (r) => {
      pending.delete(r);
      console.log("request failed", r.url(), r.failure()?.errorText);
    });
    const timer = setInterval(() => {
      if (pending.size) console.log("pending:", [...pending.values()].join(" | "));
    }, 5000);
    context.on("close", () => clearInterval(timer));
  }
  return { context, page };
}

let n = 0;
export function uniqueEmail(prefix = "user") {
  n += 1;
  // Two journey files run at once (vitest.e2e.config.ts): the worker's id keeps their addresses apart.
  return `${prefix}-${Date.now().toString(36)}-${process.env.VITEST_POOL_ID ?? 0}-${n}@example.test`;
}

/** Screenshots go to SHOTS_DIR when set (for looking at screens), never into the repo by default. */
/** A search tool's own 'Search' button (the sidebar has a 'Search' group too). */
export function searchButton(page: Page) {
  return page.getByRole("main").getByRole("button", { name: "Search", exact: true });
}

export async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
