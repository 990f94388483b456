// Accounts and seed data for the journeys: the shared admin (signed up once, whichever journey runs first), API
// tokens, browser sign-in, and reports made through the API.
import type { Browser, Page } from "playwright-core";
import type { NewReportInput } from "../../worker/features/reports/rules/new-report";
import { expect, inject } from "vitest";
import { baseUrl, E2E_PASSWORD, newPage } from "./browser";
import { deliveredLink } from "./dev-server";

/**
 * Opens the confirmation link the sign-up mailed to `email` (delivered by the fake mail provider), as the customer
 * would: paid features need a confirmed address (issue 39).
 */
export async function confirmAddress(email: string): Promise<void> {
  // Under an agency's brand the subject names the agency, not Porchlight.
  const link = await deliveredLink(inject("mailUrl"), email, /^Confirm your .+ email address$/);
  const confirm = await fetch(new URL(new URL(link).pathname + new URL(link).search, baseUrl()), { redirect: "manual" });
  expect(confirm.status).toBe(303);
  expect(confirm.headers.get("Location")).toContain("access_token=");
}

/** Signs the shared admin up when no journey has yet (an existing account answers 422). Returns its email. */
export async function ensureAdmin(): Promise<string> {
  const email = inject("adminEmail");
  const res = await apiSignUp(email, "10.77.0.1");
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

/** A page in a context of its own (`width` px wide), signed in as `email`. */
export async function signedInPage(browser: Browser, email: string, width?: number) {
  const made = await newPage(browser, width);
  await signIn(made.page, email);
  return made;
}

/** Signs `email` up through the API from `ip` (the journey's password): the answer, for the caller to judge. */
export function apiSignUp(email: string, ip: string): Promise<Response> {
  return fetch(`${baseUrl()}/auth/v1/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ email, password: E2E_PASSWORD }),
  });
}

/** A new business account signed up through the API from `ip`, its address confirmed (paid features need it). */
async function signUpConfirmed(email: string, ip: string): Promise<{ id: string }> {
  const res = await apiSignUp(email, ip);
  expect(res.status).toBe(200);
  const { user } = (await res.json()) as { user: { id: string } };
  await confirmAddress(email);
  return user;
}

/** A new confirmed business account (signed up from `ip`): its user id and an access token for the journey's API calls. */
export async function confirmedAccount(email: string, ip: string): Promise<{ id: string; token: string }> {
  const { id } = await signUpConfirmed(email, ip);
  return { id, token: await accessToken(email) };
}

/** A new business account (signed up through the API from `ip`), then signed in on the page. */
export async function signUpAndIn(page: Page, email: string, ip = "10.78.0.1") {
  await signUpConfirmed(email, ip);
  await signIn(page, email);
}

/** A new business account (`email`, signed up from `ip`) signed in on a page of its own, `width` px wide. */
export async function signedUpPage(browser: Browser, email: string, ip: string, width?: number) {
  const made = await newPage(browser, width);
  await signUpAndIn(made.page, email, ip);
  return made;
}

/** Saves Business Settings through PUT /api/profile, as the form does. */
export async function saveProfile(token: string, fields: Record<string, string>): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/profile`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(fields),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The shared admin's email and an access token for it. */
export async function adminSession(): Promise<{ email: string; token: string }> {
  const email = await ensureAdmin();
  return { email, token: await accessToken(email) };
}

/** A report made through POST /api/reports (the Create New Report form's API); its id. */
export async function createReport(token: string, fields: NewReportInput): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/reports`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(fields),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { report: { id: string } }).report.id;
}

/** A roofer in Tampa, as the fake AI's generated reports are checked for: with a name, company and phone, a report's fields. */
export const TAMPA_ROOFER = { area: "Tampa, FL", keyword: "roofer tampa", description: "Roof repair and storm damage restoration", category: "Roofing" } satisfies Partial<NewReportInput>;

/** A plumber's report under a name no other run uses ("Lakeside Plumbing …"): its id and that name. */
export async function createPlumberReport(token: string, fields: Pick<NewReportInput, "phone" | "area" | "keyword" | "description" | "generate">) {
  const name = `Lakeside Plumbing ${Date.now().toString(36)}`;
  return { name, reportId: await createReport(token, { name, company_name: "Lakeside Plumbing Co", category: "Plumbing", ...fields }) };
}

/**
 * An admin's scan of a report's prospect: POST `scans` with the body for the prospect, then waits until
 * `scans/<id>` is done and the report is ready. The auth header, the prospect's id and the scan's.
 */
export async function scanOfReportsProspect(token: string, reportId: string, scans: string, body: (prospectId: string) => object, timeout: number) {
  const auth = { Authorization: `Bearer ${token}` };
  const report = (await (await fetch(`${baseUrl()}/api/reports/${reportId}`, { headers: auth })).json()) as { prospect: { id: string } };
  const prospectId = report.prospect.id;
  const started = await fetch(`${baseUrl()}${scans}`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify(body(prospectId)) });
  expect(started.status, await started.clone().text()).toBe(201);
  const scanId = ((await started.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await fetch(`${baseUrl()}${scans}/${scanId}`, { headers: auth })).json()) as { status: string }).status, { timeout, interval: 500 })
    .toBe("done");
  await waitUntilReady(reportId);
  return { auth, prospectId, scanId };
}

/** Waits until the real queue has generated the report against the fake AI (its public status is 'ready'). */
export async function waitUntilReady(id: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    const s = (await (await fetch(`${baseUrl()}/api/shared/reports/${id}`)).json()) as { report: { status: string } };
    if (s.report.status === "ready") return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`report ${id} did not become ready`);
}
