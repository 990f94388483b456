// Starts the fakes on fixed loopback ports for the worker tests (vitest.config.ts points the bindings there).
import { startFakes } from "./index";
import { startLibsqlServer } from "./libsql-server";

// FAKE_PORT_BASE moves them, so two checkouts can run their suites side by side.
const base = Number(process.env.FAKE_PORT_BASE ?? 18931);
export const WORKER_FAKE_PORTS = { ai: base, search: base + 1, tts: base + 2, libsql: base + 3, mail: base + 4, pagespeed: base + 5, website: base + 6 };

export default async function setup() {
  // The services worker code calls: AI, web search, text to speech, mail, PageSpeed, and the audit's fake website.
  const fakes = await startFakes({ services: ["ai", "search", "tts", "mail", "pagespeed", "website"], ports: WORKER_FAKE_PORTS });
  // A libSQL server, for the tests that run the worker with LIBSQL_URL (tests/worker/libsql.test.ts).
  const libsql = await startLibsqlServer(WORKER_FAKE_PORTS.libsql);
  return async () => {
    await Promise.all([fakes.close(), libsql.close()]);
  };
}
