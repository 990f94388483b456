// The free-audit widget journey (issue 21): an agency's page on ANOTHER local origin embeds the widget's script; a
// visitor fills the form in Chromium (inside the widget's shadow root, untouched by the page's own loud styles), sees the
// audit's progress, then the shared report's link; the fake mail provider received the visitor's mail with the same
// link; the agency's bell shows the lead, a local webhook receiver got a correctly signed `widget.lead`, and the admin's
// Widgets page lists the lead.
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminSession, signedInPage } from "./accounts";
import { baseUrl, newPage, shot, uniqueEmail, useBrowser } from "./browser";
import { deliveredLink } from "./dev-server";
import { startWebhookReceiverFake, type WebhookReceiverFake } from "../fakes/webhook-receiver-fake";

const browser = useBrowser();
let host: Server;
let hostOrigin: string;
let widgetId: string;
let ipCounter = 0;
let receiver: WebhookReceiverFake;
let hookSecret: string;
const HOOK_PATH = "/hooks/widget-leads";
/** One business name per run, so the shared admin's bell shows exactly this lead. */
const BUSINESS = `Bright Plumbing ${Math.random().toString(36).slice(2, 6)}`;

/** The agency's own site: loud styles of its own (which must not reach the widget) and the pasted snippet. */
function hostPage(snippet: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Acme Marketing</title>
<style>
body{margin:0;font-family:Georgia,serif;background:#f3efe6;color:#3b2f1e}
header{background:#3b2f1e;color:#fff;padding:18px 24px;font-size:20px}
main{max-width:1040px;margin:0 auto;padding:24px;display:grid;gap:32px;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));align-items:start}
input{background:#ff0 !important}
.card{border:0;font-size:30px}
</style></head><body>
<header>Acme Marketing · Local SEO for trades</header>
<main><section><h1>Is your business easy to find on Google?</h1><p class="card">Get a free audit of your Google listing, website and rankings in two minutes.</p></section>
<section>${snippet}</section></main></body></html>`;
}

beforeAll(async () => {
  host = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(hostPage(`<script src="${baseUrl()}/widget/${widgetId}.js" async></script>`));
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const { token } = await adminSession();
  const res = await fetch(`${baseUrl()}/api/widgets`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: "Acme homepage", accent: "#0f766e", origins: [hostOrigin], askPhone: true }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  widgetId = ((await res.json()) as { widget: { id: string } }).widget.id;

  // The agency's webhook endpoint for widget leads, on a loopback receiver (WEBHOOKS_ALLOW_LOOPBACK in the dev server).
  receiver = await startWebhookReceiverFake();
  const hook = await fetch(`${baseUrl()}/api/webhooks`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ url: `${receiver.url}${HOOK_PATH}`, events: ["widget.lead"] }),
  });
  expect(hook.status, await hook.clone().text()).toBe(201);
  hookSecret = ((await hook.json()) as { secret: string }).secret;
});

afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve));
  await receiver?.close();
});

/** Each visitor comes from an address of their own (CF-Connecting-IP, as Cloudflare sets it), so the per-address limit is theirs. */
async function visitorContext(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const made = await newPage(browser(), width);
  ipCounter += 1;
  const ip = `10.79.${Math.floor(Math.random() * 250)}.${ipCounter}`;
  await made.context.route(`${baseUrl()}/api/widget/**`, (route) => route.continue({ headers: { ...route.request().headers(), "cf-connecting-ip": ip } }));
  return made;
}

async function fillAndSend(page: Page, email: string) {
  await page.goto(hostOrigin);
  await page.getByRole("heading", { name: "Get your free business audit" }).waitFor();
  await page.getByLabel("Business name").fill(BUSINESS);
  // The visitor's trade (issue 26): it tags the prospect and makes its keyword.
  await page.getByLabel("Your trade").selectOption("Plumbing");
  await page.getByLabel("City or area").fill("Austin, TX");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone (optional)").fill("512 555 0100");
  await page.getByLabel("I agree to be contacted about my free audit.").check();
}

describe("the free-audit widget on another site", () => {
  it("takes a visitor's request, shows the progress, then the shared link, and mails the visitor the link", async () => {
    const { context, page } = await visitorContext(1280);
    const email = uniqueEmail("visitor");
    await fillAndSend(page, email);
    // The page's loud styles stay outside the shadow root, and the widget's stay inside it.
    const inputBackground = await page.getByLabel("Business name").evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(inputBackground).not.toBe("rgb(255, 255, 0)");
    expect(await page.locator("p.card").evaluate((el) => getComputedStyle(el).borderTopWidth)).toBe("0px");
    await shot(page, "widget-desktop-form-1280");

    await page.getByRole("button", { name: "Get my free audit" }).click();
    await page.getByRole("heading", { name: "Thanks! We are on it" }).waitFor();
    await page.getByText("Finding your Google listing").waitFor();
    await shot(page, "widget-desktop-progress-1280");

    const link = page.getByRole("link", { name: "Open your free report" });
    await link.waitFor({ timeout: 50_000 });
    const href = (await link.getAttribute("href"))!;
    expect(href).toMatch(new RegExp(`^${baseUrl()}/shared/reports/[0-9a-f-]{36}$`));
    await page.getByText(`We also sent the link to ${email}.`).waitFor();
    await shot(page, "widget-desktop-done-1280");

    const mailed = await deliveredLink(inject("mailUrl"), email, "Your free business audit is ready");
    expect(new URL(mailed).pathname).toBe(new URL(href).pathname);

    // The agency's webhook got the lead, signed the way Stripe signs: t=<unix>,v1=HMAC-SHA256(secret, "<t>.<body>").
    const delivered = await receiver.waitFor(HOOK_PATH, (r) => JSON.parse(r.body).data?.email === email, 30_000);
    const body = JSON.parse(delivered.body) as { type: string; data: Record<string, string> };
    expect(body).toMatchObject({ type: "widget.lead", data: { name: BUSINESS, area: "Austin, TX", email } });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(delivered.headers["porchlight-signature"] ?? "") ?? [];
    expect(v1).toBe(createHmac("sha256", hookSecret).update(`${t}.${delivered.body}`).digest("hex"));

    // The link opens the visitor's report.
    const report = await fetch(`${baseUrl()}/api/shared/reports/${href.split("/").pop()}`);
    expect(((await report.json()) as { report: { status: string } }).report.status).toBe("ready");
    await context.close();
  }, 90_000);

  it("works on a phone, and the admin's Widgets page lists the lead", async () => {
    const { context, page } = await visitorContext(375);
    const email = uniqueEmail("phone-visitor");
    await fillAndSend(page, email);
    await page.getByRole("button", { name: "Get my free audit" }).click();
    await page.getByRole("heading", { name: "Thanks! We are on it" }).waitFor();
    await shot(page, "widget-phone-progress-375");
    await page.getByRole("link", { name: "Open your free report" }).waitFor({ timeout: 50_000 });
    await shot(page, "widget-phone-done-375");
    await context.close();

    const { email: admin } = await adminSession();
    for (const width of [1280, 375]) {
      const made = await signedInPage(browser(), admin, width);
      if (width > 1000) {
        // The bell tells the agency at once.
        await made.page.getByRole("button", { name: /^Notifications, \d+ unread/ }).first().click();
        await made.page.getByRole("link", { name: `${BUSINESS} asked for a free audit through your website` }).first().waitFor();
        await shot(made.page, "widget-bell-1280");
        await made.page.keyboard.press("Escape");
      }
      // The sidebar's Admin group links the page (on a phone the sidebar is behind the menu button).
      if (width > 1000) await made.page.getByRole("link", { name: "Widgets" }).click();
      else await made.page.goto("/admin/widgets");
      await made.page.getByRole("heading", { name: "Free-audit widgets" }).waitFor();
      await made.page.getByRole("row", { name: /Acme homepage/ }).getByRole("button", { name: "Open" }).click();
      await made.page.getByRole("heading", { name: "Recent leads" }).waitFor();
      await made.page.getByRole("cell", { name: email }).waitFor();
      // What protects the widgets, and this widget's spend today against its daily cap.
      await made.page.getByRole("heading", { name: "Protection" }).waitFor();
      await made.page.getByText(/at most one report mail a day, across all widgets/).waitFor();
      expect(await made.page.getByLabel("Daily spending cap (dollars)").inputValue()).toBe("2.00");
      await made.page.frameLocator("iframe.widget-preview").getByRole("heading", { name: "Get your free business audit" }).waitFor();
      await made.page.getByText(`/widget/${widgetId}.js`).waitFor();
      await shot(made.page, `widget-admin-${width}`);
      await made.context.close();
    }
  }, 120_000);
});
