// Starts the fakes on fixed loopback ports for the worker tests (vitest.config.ts points the bindings there).
import { startFakes } from "./index";

// FAKE_PORT_BASE moves them, so two checkouts can run their suites side by side.
const base = Number(process.env.FAKE_PORT_BASE ?? 18931);
export const WORKER_FAKE_PORTS = { ai: base, search: base + 1, tts: base + 2 };

export default async function setup() {
  // The services worker code calls: AI, web search, text to speech.
  const fakes = await startFakes({ services: ["ai", "search", "tts"], ports: WORKER_FAKE_PORTS });
  return () => fakes.close();
}
