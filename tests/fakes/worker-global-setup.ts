// Starts the fakes on fixed loopback ports for the worker tests (vitest.config.ts points the bindings there).
import { startFakes } from "./index";
import { startLibsqlServer } from "./libsql-server";

// FAKE_PORT_BASE moves them, so two checkouts can run their suites side by side.
const base = Number(process.env.FAKE_PORT_BASE ?? 18931);
export const WORKER_FAKE_PORTS = { ai: base, search: base + 1, tts: base + 2, libsql: base + 3, mail: base + 4, google: base + 5, pagespeed: base + 6, website: base + 7, turnstile: base + 10, webhooks: base + 12, dns: base + 14, twilio: base + 16, aiEngines: base + 17 };

async function start() {
  // The services worker code calls: AI, web search, text to speech, mail, Google (OAuth and Business Profile),
  // PageSpeed, the audit's fake website, Turnstile's siteverify (the widget's bot check), the webhook receiver and the
  // fetch guard's DNS-over-HTTPS resolver, Twilio, and AI Visibility's engines (OpenAI, Perplexity, Gemini).
  const fakes = await startFakes({ services: ["ai", "search", "tts", "mail", "google", "pagespeed", "website", "turnstile", "webhooks", "dns", "twilio", "aiEngines"], ports: WORKER_FAKE_PORTS });
  // A libSQL server, for the tests that run the worker with LIBSQL_URL (tests/worker/platform/libsql.test.ts).
  const libsql = await startLibsqlServer(WORKER_FAKE_PORTS.libsql);
  return { users: 0, close: () => Promise.all([fakes.close(), libsql.close()]) };
}

/**
 * Both worker projects (vitest.config.ts) run this in the same process, or either one alone: the first starts the
 * fakes, the last to finish closes them.
 */
const RUNNING = Symbol.for("porchlight.workerFakes");
export default async function setup() {
  const shared = globalThis as { [RUNNING]?: ReturnType<typeof start> };
  const running = (shared[RUNNING] ??= start());
  (await running).users += 1;
  return async () => {
    const fakes = await running;
    fakes.users -= 1;
    if (fakes.users > 0) return;
    delete shared[RUNNING];
    await fakes.close();
  };
}
