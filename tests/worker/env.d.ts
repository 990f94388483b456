// Test-only bindings added in vitest.config.ts, on top of the worker's own.
import type { D1Migration } from "cloudflare:test";
import type { Secrets } from "../../worker/platform/env";

declare global {
  namespace Cloudflare {
    // The generated bindings are already here (worker-configuration.d.ts); tests also read the secrets.
    interface Env extends Secrets {
      TEST_MIGRATIONS: D1Migration[];
      /** A libSQL server on loopback (tests/fakes/libsql-server.ts), already migrated. */
      TEST_LIBSQL_URL: string;
      /** The mail fake (tests/fakes/mail-fake.ts): MAIL_BASE_URL for tests that turn a provider on. */
      TEST_MAIL_BASE_URL: string;
      /** The Google fake (tests/fakes/google-fake.ts): OAuth and Business Profile on one origin. */
      TEST_GOOGLE_BASE_URL: string;
      /** The audit's fake website (tests/fakes/website-fake.ts); its business's home page is `${TEST_WEBSITE_URL}/site/`. */
      TEST_WEBSITE_URL: string;
      /** Turnstile's fake siteverify (tests/fakes/turnstile-fake.ts): TURNSTILE_BASE_URL for the widget's bot check. */
      TEST_TURNSTILE_BASE_URL: string;
      /** The loopback webhook receiver (tests/fakes/webhook-receiver-fake.ts): endpoints at `${TEST_WEBHOOKS_URL}/hooks/<name>`. */
      TEST_WEBHOOKS_URL: string;
      /** The fetch guard's fake DoH resolver (tests/fakes/dns-fake.ts); DNS_RESOLVER_URL is `${TEST_DNS_URL}/dns-query`. */
      TEST_DNS_URL: string;
      /** Twilio's fake Messages API (tests/fakes/twilio-fake.ts): TWILIO_BASE_URL for review requests by text. */
      TEST_TWILIO_BASE_URL: string;
      /** The AI Visibility engines fake's origin (its /__requests and /__reset). */
      TEST_AI_ENGINES_URL: string;
    }
  }
}
