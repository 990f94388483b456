// Builds the web app, starts the fakes and a fresh local worker (what `wrangler dev` serves: dev-server.ts) on its own
// port and database.
import type { TestProject } from "vitest/node";
import { aiEngineVars, FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET, startFakes, startWidgetFake } from "../fakes";
import { buildWeb, deliveredLink, startDevServer } from "./dev-server";
import { E2E_PASSWORD } from "./browser";

export const E2E_JWT_SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";
export const E2E_ENCRYPTION_KEY = "e2e-encryption-key-e2e-encryption-key-01234";
export const E2E_ADMIN = "owner@agency.test";
export const E2E_STRIPE = { monthly: "https://buy.stripe.test/monthly", annual: "https://buy.stripe.test/annual", portal: "https://billing.stripe.test/p/login/e2e" };

type Started = Awaited<ReturnType<typeof start>>;
const RUNNING = Symbol.for("porchlight.e2e.running");

/**
 * Every journey project of a vitest run (vitest.e2e.config.ts) runs this global setup: the first starts the fakes and
 * the dev server, the others get the same ones, and the last to finish stops them. scripts/e2e.ts starts two runs,
 * each with its own port (E2E_PORT) and so its own server and database.
 */
export default async function setup(project: TestProject) {
  const shared = globalThis as { [RUNNING]?: { started: Promise<Started>; users: number } };
  const running = (shared[RUNNING] ??= { started: start(), users: 0 });
  running.users += 1;
  const { server, fakes, stop } = await running.started;
  project.provide("baseUrl", server.baseUrl);
  project.provide("adminEmail", E2E_ADMIN);
  project.provide("mailUrl", fakes.mail!.url);
  project.provide("googleUrl", fakes.google!.url);
  // The audit's fake small-business website (Joe's Plumbing at `${websiteUrl}/site/`).
  project.provide("websiteUrl", fakes.website!.url);
  // The search fake's origin (POST /__config sets its latency: a journey can watch a scan while it runs).
  project.provide("searchUrl", fakes.search!.url);
  return async () => {
    running.users -= 1;
    if (running.users === 0) {
      delete shared[RUNNING];
      await stop();
    }
  };
}

async function start() {
  // Only the services the app calls: AI, search, voice for the chat, mail, Google, PageSpeed, the audit's fake website;
  // and the live chat widget's script.
  const fakes = await startFakes({ services: ["ai", "search", "tts", "mail", "google", "pagespeed", "website", "dns", "aiEngines"] });
  const widget = await startWidgetFake();
  // scripts/e2e.ts builds the app once for both of its lanes.
  if (process.env.E2E_WEB_BUILT !== "1") buildWeb();
  const port = Number(process.env.E2E_PORT ?? 8799);
  const server = await startDevServer({
    port,
    state: `.e2e/state-${port}`,
    vars: {
      ENVIRONMENT: "development",
      JWT_SECRET: E2E_JWT_SECRET,
      ADMIN_EMAILS: E2E_ADMIN,
      AI_API_KEY: "fake-key",
      AI_BASE_URL: fakes.ai.url,
      AI_TIMEOUT_MS: "5000",
      SERPAPI_KEY: "fake-key",
      ELEVENLABS_API_KEY: "fake-key",
      ELEVENLABS_BASE_URL: fakes.tts!.url,
      REPORT_RETRY_BASE_SECONDS: "1",
      SERPAPI_BASE_URL: fakes.search!.url,
      CHAT_WIDGET_SRC: widget.src,
      STRIPE_LINK_MONTHLY: E2E_STRIPE.monthly,
      STRIPE_LINK_ANNUAL: E2E_STRIPE.annual,
      STRIPE_PORTAL_URL: E2E_STRIPE.portal,
      // Mail leaves through the mail-out queue to the fake Resend API, as in production.
      MAIL_PROVIDER: "resend",
      MAIL_API_KEY: "fake-key",
      MAIL_FROM: "Porchlight <hello@porchlight.test>",
      MAIL_BASE_URL: fakes.mail!.url,
      ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
      // Google Business Profile against the fake Google; a published post's review state is looked at after 1 s.
      GOOGLE_OAUTH_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
      GOOGLE_OAUTH_CLIENT_SECRET: FAKE_GOOGLE_CLIENT_SECRET,
      GOOGLE_OAUTH_BASE_URL: fakes.google!.url,
      GBP_API_BASE_URL: fakes.google!.url,
      GBP_RECONCILE_SECONDS: "1",
      // Audits (issue 18): PageSpeed's fake, and the fake website on loopback may be fetched.
      PAGESPEED_BASE_URL: fakes.pagespeed!.url,
      AUDIT_ALLOW_LOOPBACK: "1",
      // Outgoing webhooks may reach the journeys' loopback receivers (issue 21).
      WEBHOOKS_ALLOW_LOOPBACK: "1",
      // The fetch guard looks host names up with the fake resolver, so a name typed in a journey never leaves loopback.
      DNS_RESOLVER_URL: fakes.dns!.resolverUrl,
      // The Citation Tracker reads listing pages from the fake directory web (tests/fakes/citation-web.ts), never the hosts.
      CITATIONS_WEB_BASE_URL: `${fakes.search!.url}/dir`,
      // AI Visibility's engines (issue 29): OpenAI, Perplexity and Gemini against their fake; Google's two are the search fake.
      ...aiEngineVars(fakes.aiEngines!.url),
    },
  });
  await signUpConfirmedAdmin(server.baseUrl, fakes.mail!.url, E2E_ADMIN);
  const stop = async () => {
    if (process.env.E2E_DEBUG) console.log(server.output());
    await server.stop();
    await fakes.close();
    await widget.close();
  };
  return { server, fakes, stop };
}

/**
 * ADMIN_EMAILS makes an address admin only once its emailed link is opened: sign the shared admin up
 * and open the link from the mail the fake provider received, as the admin would from their inbox.
 */
async function signUpConfirmedAdmin(baseUrl: string, mailUrl: string, email: string) {
  const signup = await fetch(`${baseUrl}/auth/v1/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: E2E_PASSWORD }),
  });
  if (!signup.ok) throw new Error(`admin sign-up failed: ${signup.status} ${await signup.text()}`);
  const link = await deliveredLink(mailUrl, email, "Confirm your Porchlight email address");
  const confirm = await fetch(new URL(new URL(link).pathname + new URL(link).search, baseUrl), { redirect: "manual" });
  if (confirm.status !== 303 || !confirm.headers.get("Location")?.includes("access_token=")) {
    throw new Error(`admin confirmation failed: ${confirm.status} ${confirm.headers.get("Location")}`);
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    /** The fake mail provider's origin (GET /__messages?to= lists what it delivered). */
    mailUrl: string;
    /** The fake Google's origin (GET /__posts lists the posts it received). */
    googleUrl: string;
    /** The audit's fake small-business website (tests/fakes/website-fake.ts); Joe's Plumbing's home page is `${websiteUrl}/site/`. */
    websiteUrl: string;
    /** The search fake's origin (tests/fakes/search-fake.ts; POST /__config {latencyMs}). */
    searchUrl: string;
  }
}
