// Starts the fakes on fixed loopback ports for the worker tests (vitest.config.ts points the bindings there).
import { startFakes } from "./index";

export const WORKER_FAKE_PORTS = { ai: 18931, search: 18932, tts: 18933 };

export default async function setup() {
  const fakes = await startFakes({ ports: WORKER_FAKE_PORTS });
  return () => fakes.close();
}
