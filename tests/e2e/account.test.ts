// Journeys of the Account page: two-factor sign-in set up from the key the page shows, then a sign-in with a code;
// an email change confirmed from the delivered mail; deleting an account takes its data and logo with it.
import type { Page } from "playwright-core";
import { Secret, TOTP } from "otpauth";
import { describe, expect, inject, it } from "vitest";
import { accessToken, adminSession } from "./accounts";
import { baseUrl, E2E_PASSWORD, newPage, shot, uniqueEmail, useBrowser } from "./browser";
import { deliveredLink } from "./dev-server";

const browser = useBrowser();

/** The code an authenticator app shows for `secret`, `steps` periods from now. */
function codeFor(secret: string, steps = 0): string {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
}

async function signUpApi(email: string) {
  const res = await fetch(`${baseUrl()}/auth/v1/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.78.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    body: JSON.stringify({ email, password: E2E_PASSWORD }),
  });
  expect(res.status).toBe(200);
}

async function signInThroughForm(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function openAccount(page: Page) {
  await page.goto("/settings/account");
  await page.getByRole("heading", { name: "Account", exact: true }).waitFor();
  await page.getByText(/You sign in with/).waitFor();
}

describe("two-factor sign-in", () => {
  it("is set up from the key the Account page shows, then sign-in asks for the code and refuses a wrong one", async () => {
    const email = uniqueEmail("twofactor");
    await signUpApi(email);
    const { context, page } = await newPage(browser());
    await signInThroughForm(page, email);
    await page.waitForURL(/\/dashboard$/);
    // The sidebar's Settings group leads to the page.
    await page.getByRole("link", { name: "Account" }).click();
    await page.waitForURL(/\/settings\/account$/);
    await page.getByText("Two-factor sign-in is off.").waitFor();
    await shot(page, "account-1280");

    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    await shot(page, "account-enrol-1280");
    const enrolmentCode = codeFor(secret);
    await page.getByLabel("Authentication code").fill(enrolmentCode);
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await page.getByText("Two-factor sign-in is on.").waitFor();
    await page.getByRole("list", { name: "Authenticator apps" }).getByText("Authenticator app").waitFor();
    // The first app comes with ten recovery codes, shown once (issue 26).
    await page.getByText("Save these codes now").waitFor();
    const codes = (await page.getByTestId("recovery-codes").locator("code").allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await shot(page, "account-recovery-codes-1280");
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, "account-recovery-codes-375");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "I saved them" }).click();
    await page.getByText("10 of 10 recovery codes left", { exact: false }).waitFor();

    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.waitForURL(/\/login$/);
    await signInThroughForm(page, email);
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    await page.getByText("Enter the 6-digit code from your authenticator app").waitFor();
    await shot(page, "code-prompt-1280");
    // The code the set-up used is spent (it is still inside the ±1 step window here).
    await page.getByLabel("Authentication code").fill(enrolmentCode);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("That code was already used.", { exact: false }).waitFor();
    await page.getByLabel("Authentication code").fill(codeFor(secret, 1));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard$/);
    // A reload keeps the two-factor session.
    await openAccount(page);
    await page.getByRole("list", { name: "Authenticator apps" }).waitFor();

    // Lost phone: a recovery code instead of the app's code, once; the Account page then says what to do.
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.waitForURL(/\/login$/);
    await signInThroughForm(page, email);
    await page.getByRole("button", { name: "Lost your phone? Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(codes[0]!.toLowerCase());
    await shot(page, "recovery-prompt-1280");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/settings\/account\?recovered=1/);
    await page.getByText("You signed in with a recovery code").waitFor();
    await page.getByText("9 of 10 recovery codes left", { exact: false }).waitFor();
    await shot(page, "account-recovered-1280");
    await context.close();
  });
});

describe("changing the email", () => {
  it("sends a link to the new address; opening it makes it the sign-in email", async () => {
    const email = uniqueEmail("moving");
    const next = uniqueEmail("moved");
    await signUpApi(email);
    const { context, page } = await newPage(browser());
    await signInThroughForm(page, email);
    await page.waitForURL(/\/dashboard$/);
    await openAccount(page);
    const form = page.getByRole("form", { name: "Change email" });
    await form.getByLabel("New email").fill(next);
    await form.getByLabel("Current password").fill(E2E_PASSWORD);
    await form.getByRole("button", { name: "Change email" }).click();
    await page.getByText(`We sent a link to ${next}`).waitFor();

    const link = await deliveredLink(inject("mailUrl"), next, "Confirm your new Porchlight email address");
    await page.goto(link);
    await page.waitForURL(/\/dashboard/);
    await openAccount(page);
    await page.getByText(`You sign in with ${next}.`).waitFor();
    await context.close();
    // The old address no longer signs in; the new one does.
    await expect(accessToken(next)).resolves.toMatch(/\./);
  });
});

describe("deleting an account", () => {
  it("asks for the password, signs out, and the account's data and logo are gone", async () => {
    const email = uniqueEmail("leaving");
    await signUpApi(email);
    const token = await accessToken(email);
    const form = new FormData();
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
    form.append("file", new Blob([png], { type: "image/png" }), "logo.png");
    const upload = await fetch(`${baseUrl()}/api/profile/logo`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(upload.status).toBe(201);
    const logoUrl = ((await upload.json()) as { profile: { company_logo_url: string } }).profile.company_logo_url;
    expect((await fetch(`${baseUrl()}${logoUrl}`)).status).toBe(200);

    const { context, page } = await newPage(browser(), 375);
    await signInThroughForm(page, email);
    await page.waitForURL(/\/dashboard$/);
    await openAccount(page);
    await shot(page, "account-375");
    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete your account?" });
    await dialog.getByLabel("Password").fill("not-the-password-1");
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await dialog.getByText("The password is incorrect.").waitFor();
    await shot(page, "account-delete-375");
    await dialog.getByLabel("Password").fill(E2E_PASSWORD);
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await page.waitForURL(/\/login\?deleted=1$/);
    await page.getByText("Your account and its data were deleted.").waitFor();
    await context.close();

    expect((await fetch(`${baseUrl()}${logoUrl}`)).status).toBe(404);
    const signIn = await fetch(`${baseUrl()}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: E2E_PASSWORD }),
    });
    expect(signIn.status).toBe(400);
    const admin = await adminSession();
    const users = await fetch(`${baseUrl()}/api/admin/users?q=${encodeURIComponent(email)}`, { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(((await users.json()) as { users: unknown[] }).users).toEqual([]);
  });
});
