// Worker tests: run inside workerd with the real bindings from wrangler.toml and the real migrations.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { WORKER_FAKE_PORTS } from "./tests/fakes/worker-global-setup";
import { FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET } from "./tests/fakes/google-fake";
import { AI_FAKE_KEYS } from "./tests/fakes/ai-engines-fake";
import { patchPoolOncePerRunner, patchWrapperProxyOnce } from "./tests/worker/pool-patch";

const migrations = await readD1Migrations("./migrations");
// Requests through SELF as fast at the end of a file as at its start (pool-patch.ts).
patchWrapperProxyOnce();

// wrangler.toml serves the web build as static assets; the worker tests do not need it built, but
// wrangler refuses a missing assets folder, so a fresh clone gets an empty one.
mkdirSync("./dist/client", { recursive: true });

export const TEST_JWT_SECRET = "test-secret-test-secret-test-secret-0123456789";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // The tests' network is loopback only (issue 39): every fetch the worker makes, whatever passed the fetch guard,
        // reaches the fakes on 127.0.0.1 or fails; a name the fake resolver calls public is never connected to.
        outboundService: { network: { allow: ["local"] } },
        bindings: {
          TEST_MIGRATIONS: migrations,
          ENVIRONMENT: "development",
          JWT_SECRET: TEST_JWT_SECRET,
          ADMIN_EMAILS: "boss@agency.test,Second.Admin@Agency.test",
          APP_ORIGIN: "http://localhost:8787",
          AI_API_KEY: "",
          AI_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.ai}/v1`,
          SERPAPI_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.search}`,
          ELEVENLABS_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.tts}`,
          AI_TIMEOUT_MS: "2000",
          REPORT_RETRY_BASE_SECONDS: "1",
          SERPAPI_KEY: "test-serp-key",
          SEARCH_TIMEOUT_MS: "1000",
          STRIPE_WEBHOOK_SECRET: "whsec_test_secret",
          STRIPE_LINK_MONTHLY: "https://buy.stripe.test/monthly",
          STRIPE_LINK_ANNUAL: "https://buy.stripe.test/annual",
          STRIPE_PORTAL_URL: "https://billing.stripe.test/p/login/test",
          ENCRYPTION_KEY: "test-encryption-key-test-encryption-key-0123",
          TEST_MAIL_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.mail}`,
          PAGESPEED_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.pagespeed}`,
          // The audit may fetch the fake website on loopback (tests only).
          AUDIT_ALLOW_LOOPBACK: "1",
          AUDIT_FETCH_TIMEOUT_MS: "3000",
          AUDIT_REPORT_WAIT_MS: "20000",
          // Webhook endpoints may be the loopback receiver (tests only); a short time-out for its `timeout` path.
          WEBHOOKS_ALLOW_LOOPBACK: "1",
          WEBHOOK_TIMEOUT_MS: "1000",
          TEST_WEBHOOKS_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.webhooks}`,
          TEST_WEBSITE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.website}`,
          // The fetch guard resolves host names with the fake DoH resolver (tests/fakes/dns-fake.ts): never the network.
          DNS_RESOLVER_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.dns}/dns-query`,
          DNS_TIMEOUT_MS: "1000",
          TEST_DNS_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.dns}`,
          // The Citation Tracker reads listing pages from the fake directory web (tests/fakes/citation-web.ts).
          CITATIONS_WEB_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.search}/dir`,
          TEST_LIBSQL_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.libsql}`,
          // Google Business Profile against the fake Google (tests/fakes/google-fake.ts).
          GOOGLE_OAUTH_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
          GOOGLE_OAUTH_CLIENT_SECRET: FAKE_GOOGLE_CLIENT_SECRET,
          GOOGLE_OAUTH_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.google}`,
          GBP_API_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.google}`,
          GBP_PERFORMANCE_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.google}`,
          GBP_RECONCILE_SECONDS: "1",
          // The widget's bot check against the fake siteverify (tests turn it on with TURNSTILE_SITE_KEY/SECRET_KEY bindings).
          TEST_TURNSTILE_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.turnstile}`,
          TEST_GOOGLE_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.google}`,
          // Twilio's Messages API fake (tests/fakes/twilio-fake.ts): review-request tests turn SMS on with TWILIO_* bindings.
          TEST_TWILIO_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.twilio}`,
          // AI Visibility's engines (tests/fakes/ai-engines-fake.ts; Google's two are the search fake): keyed, so all five are configured.
          OPENAI_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.aiEngines}/openai/v1`,
          PERPLEXITY_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.aiEngines}/perplexity`,
          GEMINI_BASE_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.aiEngines}/gemini`,
          OPENAI_API_KEY: AI_FAKE_KEYS.openai,
          PERPLEXITY_API_KEY: AI_FAKE_KEYS.perplexity,
          GEMINI_API_KEY: AI_FAKE_KEYS.gemini,
          AI_ENGINE_TIMEOUT_MS: "3000",
          TEST_AI_ENGINES_URL: `http://127.0.0.1:${WORKER_FAKE_PORTS.aiEngines}`,
        },
      },
    }),
  ],
  test: {
    // tests/domain (pure rules) runs in Node: vitest.domain.config.ts.
    // Two workerd processes at once even on a 2-core machine, where vitest's default (cores − 1) would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Two workerd processes share the cores, so a test may wait on the other file's work: 15 s, not vitest's 5 s.
    testTimeout: 15_000,
    // worker/ssr.tsx: the web's views for the shared report's HTML, as the entry hands them over (files that call
    // worker/app.ts directly never load the entry).
    setupFiles: ["./tests/worker/apply-migrations.ts", "./tests/worker/mail-links-scan.ts", "./worker/ssr.tsx"],
    // The fakes on loopback, started once for the run (worker-global-setup.ts).
    globalSetup: ["./tests/fakes/worker-global-setup.ts"],
    name: "worker",
    include: ["tests/worker/**/*.test.ts"],
    // Loading the worker's module graph into workerd is most of a file's cost (10–20 s), so the files run one after
    // another in the same workerd of each vitest worker, the hostile-input sweeps included. Each still starts from an
    // empty, migrated database and forgets what helpers remembered (apply-migrations.ts). The sweeps had a workerd each
    // for fear of the retries they leave queued slowing the files after them; sharing took the suite from 242 to
    // 170 CPU-s and 181 to 117 s, and it passed with the files in any order (--sequence.shuffle.files). Only with the
    // pool's patch-once fix in place (pool-patch.ts); otherwise each file gets its own workerd.
    isolate: !patchPoolOncePerRunner(),
  },
});
