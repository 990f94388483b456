// Shared test helpers: a real auth-js client wired to the worker, and users made through it.
import { GoTrueClient } from "@supabase/auth-js";
import { SELF } from "cloudflare:test";
import { expect } from "vitest";

export const BASE = "http://localhost";

/**
 * What a helper module remembers about the current test file's database (a user it made, say), forgotten before the
 * next file: files share helper modules and a workerd, and each starts from an emptied database (apply-migrations.ts).
 */
const fileMemos = new Set<() => void>();
export function forgetEachFile(forget: () => void) {
  fileMemos.add(forget);
}
export function newTestFile() {
  for (const forget of fileMemos) forget();
}

let ipCounter = 0;

/** A fresh client address per helper call, so rate limits of one test do not leak into another. */
export function testIp() {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

/**
 * Waits, when needed, until `needMs` fits before the end of the current rate-limit window: the limits count in fixed
 * windows (worker/platform/db/rate-limits.ts), so a run of calls that crosses a window's end starts counting again and a
 * test that fills a limit would see its last call pass (seen once in CI for the 40 TTS calls).
 */
export async function awayFromWindowEdge(windowSeconds: number, needMs: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** The timeout of a test that waits with `awayFromWindowEdge(…, 15_000)`: up to 15 s of waiting, then its own calls. */
export const WINDOW_EDGE_TEST_TIMEOUT_MS = 35_000;

export function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
}

/** The unmodified auth-js client, talking to the worker through SELF. */
export function authClient(ip = testIp()) {
  const storage = memoryStorage();
  const client = new GoTrueClient({
    url: `${BASE}/auth/v1`,
    storageKey: "test-auth",
    storage,
    autoRefreshToken: false,
    persistSession: true,
    detectSessionInUrl: false,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input as RequestInfo, init);
      req.headers.set("CF-Connecting-IP", ip);
      return SELF.fetch(req);
    },
  });
  return Object.assign(client, { storage });
}

let userCounter = 0;
export function uniqueEmail(prefix = "user") {
  userCounter += 1;
  return `${prefix}-${userCounter}-${crypto.randomUUID().slice(0, 8)}@example.test`;
}

export const GOOD_PASSWORD = "correct-horse-battery";

/**
 * A customer who signed up and opened the confirmation link (set in the database: paid features need a confirmed
 * address, issue 39). `signUpUnconfirmed` is the sign-up alone.
 */
export async function signUp(email = uniqueEmail(), password = GOOD_PASSWORD) {
  const made = await signUpUnconfirmed(email, password);
  const { env } = await import("cloudflare:test");
  await env.DB.prepare("update users set email_confirmed_at = ? where id = ?").bind(new Date().toISOString(), made.user.id).run();
  return made;
}

/** A sign-up whose confirmation link was never opened. */
export async function signUpUnconfirmed(email = uniqueEmail(), password = GOOD_PASSWORD) {
  const client = authClient();
  const { data, error } = await client.signUp({ email, password });
  if (error || !data.session) throw new Error(`sign-up failed: ${error?.message}`);
  return { client, session: data.session, user: data.user!, email, password };
}

/** A response's body as JSON when it is JSON, else its text (SSE, audio, HTML); an empty one is `empty`. */
function bodyOf(text: string, empty: unknown): any {
  if (!text) return empty;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function api(path: string, init: RequestInit & { token?: string; viewAs?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  if (init.viewAs) headers.set("X-View-As", init.viewAs);
  if (init.body && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const res = await SELF.fetch(`${BASE}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: bodyOf(text, null), headers: res.headers };
}

/** A signed-up user made admin the way `npm run admin:grant` does it: in the database. */
export async function signUpAdmin(email = uniqueEmail("admin")) {
  const made = await signUp(email);
  const { env } = await import("cloudflare:test");
  await env.DB.prepare("update profiles set is_admin = 1 where id = ?").bind(made.user.id).run();
  return made;
}

/** The link of the newest mail with this subject, read back the way local development does (loopback outbox). */
export async function mailedLink(email: string, subject: string): Promise<string> {
  const res = await SELF.fetch(`http://localhost/auth/v1/outbox?email=${encodeURIComponent(email.toLowerCase())}`);
  const { messages } = (await res.json()) as { messages: { subject: string; body: string }[] };
  const mail = messages.find((m) => m.subject === subject);
  if (!mail) throw new Error(`no "${subject}" mail for ${email}`);
  return /(http\S+)/.exec(mail.body)![1]!.replace("http://localhost:8787", "http://localhost");
}

/** The events of a server-sent-events body (the chat's streamed reply), parsed from their data lines. */
export function sseEvents<T = any>(text: string): T[] {
  return text
    .split("\n\n")
    .map((block) => block.split("\n").find((l) => l.startsWith("data:")))
    .filter((l): l is string => Boolean(l))
    .map((l) => JSON.parse(l.slice(5).trim()) as T);
}

export type WorkerCall = RequestInit & { json?: unknown; token?: string; ip?: string; stream?: boolean };

/**
 * One request through the worker's own fetch handler with extra bindings (an AI key, a recording usage queue …),
 * waiting for what it left running (waitUntil). The body is parsed as JSON when it is JSON.
 */
export async function callWorker(path: string, init: WorkerCall = {}, bindings: Record<string, unknown> = {}) {
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", init.ip ?? testIp());
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  headers.set("Accept", init.stream ? "text/event-stream" : "application/json");
  const req = new Request(`${BASE}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  const { env, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
  const { default: worker } = await import("../../worker/index");
  const ctx = createExecutionContext();
  const res = await worker.fetch(req, { ...env, ...bindings } as never, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, text, body: bodyOf(text, text) };
}

/** The code an authenticator app shows for `secret` now (or `stepOffset` 30-second steps away). */
export async function totpCode(secret: string, stepOffset = 0): Promise<string> {
  const { TOTP, Secret } = await import("otpauth");
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + stepOffset * 30_000 });
}

/** Decodes an access token's payload (no verification: the tests read the claims the client reads). */
export function claimsOf(token: string): Record<string, any> {
  const part = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part)) as Record<string, any>;
}

/**
 * A user with a verified TOTP factor, enrolled through auth-js's mfa.enroll / challengeAndVerify; the
 * client's session is aal2. The enrolment used the current step's code.
 */
export async function signUpWithFactor(email = uniqueEmail("mfa")) {
  const made = await signUp(email);
  const { data: enrolled, error } = await made.client.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
  if (error || !enrolled || enrolled.type !== "totp") throw new Error(`enroll failed: ${error?.message}`);
  const usedCode = await totpCode(enrolled.totp.secret);
  const verified = await made.client.mfa.challengeAndVerify({ factorId: enrolled.id, code: usedCode });
  if (verified.error) throw new Error(`verify failed: ${verified.error.message}`);
  return { ...made, factorId: enrolled.id, secret: enrolled.totp.secret, usedCode, session: verified.data };
}

/** An admin (a new one unless `adminToken` is given) sets the user's monthly AI allowance through the admin route. */
export async function setAllowance(userId: string, monthlyUsd: number, bindings: Record<string, unknown> = {}, adminToken?: string) {
  const token = adminToken ?? (await signUpAdmin()).session.access_token;
  const put = await callWorker(`/api/admin/users/${userId}/budget`, { method: "PUT", token, json: { monthly_usd: monthlyUsd } }, bindings);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}

/** The `n` of a `select count(*) as n …` on the test database. */
export async function countOf(sql: string, ...args: unknown[]): Promise<number> {
  const { env } = await import("cloudflare:test");
  return (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())?.n ?? 0;
}

export type AdminRoute = { method: string; path: string; body?: unknown };

/** One route called as someone: a token, and maybe the user it views as. */
export function callRoute(r: AdminRoute, as: { token?: string; viewAs?: string } = {}) {
  return api(r.path, { method: r.method, token: as.token, viewAs: as.viewAs, body: r.body ? JSON.stringify(r.body) : undefined });
}

/**
 * An admin viewing as `viewAs` calls every admin route: as a regular user, 403 (reads admin_required, as that user
 * would get; writes view_as_read_only); as another admin, the reads answer 200 and the writes are read-only.
 */
export async function expectViewingAs(routes: AdminRoute[], token: string, viewAs: { id: string; isAdmin: boolean }) {
  for (const r of routes) {
    const res = await callRoute(r, { token, viewAs: viewAs.id });
    if (viewAs.isAdmin && r.method === "GET") expect(res.status, `${r.method} ${r.path}`).toBe(200);
    else {
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.body.error.code).toBe(r.method === "GET" ? "admin_required" : "view_as_read_only");
    }
  }
}
