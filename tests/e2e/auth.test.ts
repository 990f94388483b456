// Journeys of the foundation: sign up, stay signed in across reloads and tabs, sign out; admins see Admin.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { baseUrl, E2E_PASSWORD, newPage, shot, uniqueEmail, useBrowser } from "./browser";
import { deliveredLink } from "./dev-server";

const browser = useBrowser();

const PASSWORD = E2E_PASSWORD;

async function signUpThroughForm(page: Page, email: string) {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByText("Account created successfully").waitFor();
}

async function signInThroughForm(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("a new business user", () => {
  it("signs up, lands on the dashboard, stays signed in across reloads and tabs, and signs out", async () => {
    const { context, page } = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    const email = uniqueEmail("owner");

    await signUpThroughForm(page, email);
    // After 2 seconds the spec sends the user to /login; being signed in, /login forwards to /dashboard.
    await page.waitForURL(/\/dashboard$/, { timeout: 10_000 });
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    await shot(page, "dashboard-user-1280");

    await page.reload();
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    await expect(page.getByText(email).count()).resolves.toBeGreaterThan(0);
    // Regular users never see the Admin section.
    expect(await page.getByRole("link", { name: "Prospects" }).count()).toBe(0);

    // A second tab shares the stored session.
    const second = await context.newPage();
    await second.goto("/dashboard");
    await second.getByRole("heading", { name: /Welcome/ }).waitFor();

    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.waitForURL(/\/login$/);
    // The other tab learns of the sign-out too and is sent to /login when it next needs the session.
    await second.reload();
    await second.waitForURL(/\/login$/);

    // Signed out, protected pages redirect to /login.
    await page.goto("/dashboard");
    await page.waitForURL(/\/login$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sees the spec's message for wrong credentials and the password hint on sign-up", async () => {
    const { context, page } = await newPage(browser(), 375);
    await signInThroughForm(page, uniqueEmail("nobody"), "not-the-password");
    await page
      .getByText("Invalid login credentials. Please make sure you have signed up first using the Sign Up page.")
      .waitFor();
    await shot(page, "login-error-375");
    await page.goto("/signup");
    await page.getByText("Password must be at least 8 characters").waitFor();
    await context.close();
  });
});

describe("a user who forgot the password", () => {
  it("asks for a link, opens the mail the provider delivered, sets a new password without the old one, and signs in with it", async () => {
    const email = uniqueEmail();
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": `10.79.0.${Math.floor(Math.random() * 250)}` };
    await fetch(`${baseUrl()}/auth/v1/signup`, { method: "POST", headers, body: JSON.stringify({ email, password: PASSWORD }) });

    const { context, page } = await newPage(browser());
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText(`If an account exists for ${email}`).waitFor();
    // The mail left through the mail-out queue to the (fake) provider: the link is read from the delivered mail.
    const link = await deliveredLink(inject("mailUrl"), email, "Reset your Porchlight password");

    await page.goto(link);
    await page.waitForURL(/\/reset-password/);
    await page.getByLabel("New password", { exact: true }).fill("a-recovered-secret-42");
    await page.getByLabel("Confirm new password").fill("a-recovered-secret-42");
    await shot(page, "reset-password-1280");
    await page.getByRole("button", { name: "Update password" }).click();
    await page.waitForURL(/\/dashboard$/);
    await context.close();

    const fresh = await newPage(browser());
    await signInThroughForm(fresh.page, email, "a-recovered-secret-42");
    await fresh.page.waitForURL(/\/dashboard$/);
    await fresh.context.close();
  });
});

describe("an agency admin (listed in ADMIN_EMAILS)", () => {
  it("sees the Admin section with Prospects and Users", async () => {
    const { context, page } = await newPage(browser());
    const email = inject("adminEmail");
    // The admin may already exist from another journey in this run.
    const res = await fetch(`${baseUrl()}/auth/v1/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect([200, 422]).toContain(res.status);
    await signInThroughForm(page, email);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("link", { name: "Prospects" }).waitFor();
    await page.getByRole("link", { name: "Users" }).waitFor();
    await page.getByText("Admin", { exact: true }).first().waitFor();
    await context.close();
  });
});

describe("security headers", () => {
  it("the app's HTML carries a strict CSP, and no page runs inline script", async () => {
    const res = await fetch(`${baseUrl()}/login`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
