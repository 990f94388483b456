// Accounts for the journeys: the shared admin (signed up once, whichever journey runs first), API tokens, browser sign-in.
import type { Page } from "playwright-core";
import { expect, inject } from "vitest";
import { baseUrl, E2E_PASSWORD } from "./browser";

/** Signs the shared admin up when no journey has yet (an existing account answers 422). Returns its email. */
export async function ensureAdmin(): Promise<string> {
  const email = inject("adminEmail");
  const res = await fetch(`${baseUrl()}/auth/v1/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.77.0.1" },
    body: JSON.stringify({ email, password: E2E_PASSWORD }),
  });
  expect([200, 422]).toContain(res.status);
  return email;
}

/** An access token for API calls made by the journey itself (seeding data). */
export async function accessToken(email: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.77.0.2" },
    body: JSON.stringify({ email, password: E2E_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function signIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: /sign in/i }).click();
  await page.waitForURL("**/dashboard");
}
