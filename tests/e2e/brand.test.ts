// Journey (issue 30): an admin sets the agency's brand on /admin/brand — name, an accent colour that is too light (the
// page offers the nearest readable one, which is taken), a logo upload — and a prospect opening a shared report on a
// 375 px phone sees the agency's name, logo and colour and never "Porchlight"; the sign-in page is branded too.
// The brand is reset afterwards: other journeys read the product's own name. Screens go to SHOTS_DIR when set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accentContrast } from "../../worker/platform/brand/rules/brand";
import { pdfText } from "../worker/pdf-text";
import { accessToken, adminSession, createReport, TAMPA_ROOFER, waitUntilReady, signedInPage, signedUpPage, saveProfile } from "./accounts";
import { baseUrl, newPage, shot, uniqueEmail, useBrowser } from "./browser";

const AGENCY = "Harbor Growth Co";
const browser = useBrowser();
let token: string;

beforeAll(async () => {
  token = (await adminSession()).token;
});
afterAll(async () => {
  await fetch(`${baseUrl()}/api/brand`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
});

/** rgb(r, g, b) → #rrggbb */
const hexOf = (rgb: string) => `#${(rgb.match(/\d+/g) ?? []).slice(0, 3).map((v) => Number(v).toString(16).padStart(2, "0")).join("")}`;

describe("the agency's brand", () => {
  it("is set on the Brand page and shows on a shared report at 375 px, with no Porchlight", async () => {
    const { email } = await adminSession();
    const { context, page } = await signedInPage(browser(), email, 1280);
    await page.getByRole("link", { name: "Brand", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Brand" }).waitFor();
    await shot(page, "brand-page-empty-1280");

    await page.getByLabel("Agency name").fill(AGENCY);
    // Not a colour: Save answers on the field (issue 39), nothing is sent.
    await page.getByLabel("Accent colour", { exact: true }).fill("red!!");
    await page.getByRole("button", { name: "Save brand" }).click();
    await page.locator(".field-error", { hasText: "Enter a colour like #1d4ed8" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("brand-accent");
    // Too light for white text: the page says so and offers the nearest readable colour.
    await page.getByLabel("Accent colour", { exact: true }).fill("#f2a120");
    await page.locator(".badge", { hasText: "too light" }).waitFor();
    const use = page.getByRole("button", { name: /^Use #[0-9a-f]{6}$/ });
    const nearest = (await use.textContent())!.trim().replace(/^Use /, "");
    expect(accentContrast(nearest)).toBeGreaterThanOrEqual(4.5);
    await use.click();
    expect(await page.getByLabel("Accent colour", { exact: true }).inputValue()).toBe(nearest);
    await page.locator(".badge", { hasText: "readable" }).waitFor();
    await page.getByLabel("Support email").fill("hello@harborgrowth.test");
    await page.getByLabel("Footer line").fill("Harbor Growth Co · 12 Dock St, Tampa FL");

    // A logo drawn in the browser, uploaded through the form's file input.
    const png = await page.evaluate(() => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 96;
      const g = canvas.getContext("2d")!;
      g.fillStyle = "#0f3d5e";
      g.fillRect(0, 0, 96, 96);
      g.fillStyle = "#ffffff";
      g.font = "bold 56px sans-serif";
      g.textAlign = "center";
      g.fillText("H", 48, 68);
      return canvas.toDataURL("image/png").split(",")[1]!;
    });
    await page.locator('input[type="file"]').setInputFiles({ name: "harbor.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
    await page.getByText("Replace logo").waitFor();
    // The upload keeps what was typed.
    expect(await page.getByLabel("Agency name").inputValue()).toBe(AGENCY);
    await page.getByRole("button", { name: "Save brand" }).click();
    await page.getByText("Brand saved").waitFor();
    // Reloaded: the saved brand, its accent on the page's own buttons.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Brand" }).waitFor();
    expect(await page.getByLabel("Agency name").inputValue()).toBe(AGENCY);
    const save = page.getByRole("button", { name: "Save brand" });
    expect(hexOf(await save.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(nearest);
    await shot(page, "brand-page-1280");
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Brand" }).waitFor();
    await shot(page, "brand-page-375");
    await context.close();

    // A prospect's phone, signed out.
    const id = await createReport(token, { ...TAMPA_ROOFER, name: "Tampa Bay Roofing", company_name: "Tampa Bay Roofing LLC", phone: "(813) 555-0101", generate: true });
    await waitUntilReady(id);
    const phone = await newPage(browser(), 375);
    await phone.page.goto(`/shared/reports/${id}`);
    await phone.page.getByRole("heading", { level: 1, name: "Tampa Bay Roofing" }).waitFor();
    const sender = phone.page.locator(".shared-sender");
    expect(await sender.innerText()).toContain(AGENCY);
    expect(await sender.locator("img").getAttribute("src")).toMatch(/^\/api\/brand\/logo\?v=\d+$/);
    expect(await sender.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
    expect(await phone.page.getByText("hello@harborgrowth.test").isVisible()).toBe(true);
    const button = phone.page.getByRole("link", { name: "Try the assistant" });
    expect(hexOf(await button.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(nearest);
    expect(await phone.page.content()).not.toContain("Porchlight");
    expect(await phone.page.locator('meta[property="og:site_name"]').getAttribute("content")).toBe(AGENCY);
    await shot(phone.page, "brand-shared-report-375");

    // The sign-in page on the same phone: the agency's name in the title and on the page.
    await phone.page.goto("/login");
    await phone.page.getByRole("heading", { name: "Welcome back" }).waitFor();
    expect(await phone.page.title()).toBe(`Welcome back · ${AGENCY}`);
    expect(await phone.page.getByText(`Sign in to your ${AGENCY} account.`).isVisible()).toBe(true);
    expect(await phone.page.locator("body").innerText()).not.toContain("Porchlight");
    // Its links in the agency's colour too, not the product's.
    for (const name of ["Forgot your password?", "Sign up"]) {
      const link = phone.page.getByRole("link", { name, exact: true });
      expect(hexOf(await link.evaluate((el) => getComputedStyle(el).color)), name).toBe(nearest);
    }
    await shot(phone.page, "brand-sign-in-375");
    await phone.page.setViewportSize({ width: 1280, height: 900 });
    await shot(phone.page, "brand-sign-in-1280");
    // The landing page, pre-rendered once for every agency, served with this one's brand.
    await phone.page.goto("/");
    expect(await phone.page.title()).toContain(AGENCY);
    expect(await phone.page.content()).not.toContain("Porchlight");
    expect(await phone.page.locator(".landing-foot").innerText()).toContain(`© 2026 ${AGENCY}`);
    // It speaks for the agency to businesses, not to "the agencies that sell to them".
    expect(await phone.page.locator(".hero-lead").innerText()).not.toContain("agencies");
    await shot(phone.page, "brand-landing-1280");
    await phone.page.goto(`/shared/reports/${id}`);
    await shot(phone.page, "brand-shared-report-1280");
    await phone.context.close();
  });
  it("builds a client's monthly report from /admin/client-reports; the client opens its link signed out at 375 px and the PDF", async () => {
    // A business client with a profile.
    const clientEmail = uniqueEmail("monthly");
    const client = await signedUpPage(browser(), clientEmail, "10.78.30.1", 1280);
    const clientToken = await accessToken(clientEmail);
    await saveProfile(clientToken, { company_name: "Gulf Coast Gutters", company_location: "Tampa, FL", company_category: "Roofing", company_website: "https://gulfcoastgutters.test" });
    await client.context.close();

    // The admin builds last month's report from the Client Reports screen.
    const { email } = await adminSession();
    const { context, page } = await signedInPage(browser(), email, 1280);
    await page.getByRole("link", { name: "Client Reports", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Client Reports" }).waitFor();
    await page.getByLabel("Search clients").fill(clientEmail);
    const row = page.locator("tr", { hasText: clientEmail });
    await row.getByRole("button", { name: "Build now" }).click();
    // The list polls while the report is queued or building, and stops when it is ready.
    await row.getByText("Ready", { exact: true }).waitFor({ timeout: 45_000 });
    const preview = row.getByRole("link", { name: /Preview/ });
    const href = (await preview.getAttribute("href"))!;
    expect(href).toMatch(/^\/shared\/client-reports\/[A-Za-z0-9_-]{20,}\?preview=1$/);
    await shot(page, "client-reports-admin-1280");
    await context.close();

    // The client's phone, signed out: the link the mail carries, branded, no Porchlight.
    const link = href.replace(/\?preview=1$/, "");
    const phone = await newPage(browser(), 375);
    // Its stylesheet, the brand's accent and its script's loader are inline, allowed by their hashes: the browser
    // refuses none of them, applies the styles, and the loader's script sends the "opened" beacon after the paint.
    const refused: string[] = [];
    phone.page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    const opened = phone.page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`${link}/events`));
    const res = await phone.page.goto(link);
    expect(res!.status()).toBe(200);
    await phone.page.getByRole("heading", { level: 1, name: "Gulf Coast Gutters" }).waitFor();
    // Headless Chromium names itself in its user agent, so the server takes it for a link previewer and counts
    // nothing; the beacon arriving is what shows the loader ran (tests/worker/client-reports/client-report-share.test.ts counts opens).
    const beacon = await opened;
    expect([beacon.status(), beacon.headers()["x-beacon"]]).toEqual([204, "previewer"]);
    expect(refused).toEqual([]);
    expect(await phone.page.evaluate(() => getComputedStyle(document.body).getPropertyValue("--brand-accent").trim())).toMatch(/^#[0-9a-f]{6}$/i);
    expect(await phone.page.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
    expect(await phone.page.locator("body").innerText()).toContain(AGENCY);
    expect(await phone.page.content()).not.toContain("Porchlight");
    expect(await phone.page.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
    await shot(phone.page, "client-report-375");

    // The PDF: a PDF, its text the business and the agency, no Porchlight.
    const download = phone.page.getByRole("link", { name: /PDF/ }).first();
    expect(await download.getAttribute("href")).toBe(`${link}.pdf`);
    const pdf = await phone.context.request.get(`${link}.pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.body());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const text = await pdfText(bytes);
    expect(text).toContain("Gulf Coast Gutters");
    expect(text).toContain(AGENCY);
    expect(text).not.toContain("Porchlight");
    await phone.page.setViewportSize({ width: 1280, height: 900 });
    await shot(phone.page, "client-report-1280");
    await phone.context.close();
  });
});
