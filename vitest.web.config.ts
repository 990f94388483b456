// Web component tests: happy-dom + Testing Library, outside workerd; and the scripts' tests.
import react from "@vitejs/plugin-react";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * Files that need a module graph of their own: those that replace a module with `vi.mock` (the auth client), as a
 * module the screens imported in an earlier file keeps the real one; and the first visit's 'Loading...', which shows
 * only while a screen's code has not loaded yet.
 */
const OWN_MODULES = ["auth", "auth-pages", "recovery-codes", "first-run"].map((name) => `tests/web/${name}.test.tsx`);

const shared = { environment: "happy-dom", setupFiles: ["./tests/web/setup.ts"], restoreMocks: true };

export const WEB_PROJECTS: TestProjectInlineConfiguration[] = [
  {
    plugins: [react()],
    test: {
      ...shared,
      name: "web",
      include: ["tests/web/**/*.test.{ts,tsx}", "tests/scripts/**/*.test.ts"],
      exclude: OWN_MODULES,
      // The files of a vitest worker share one environment and one module graph: React, Testing Library and the
      // screens load once, not once a file, which was more than half of this suite's CPU (228 against 104 CPU-s for
      // `npm run test:node`). tests/web/setup.ts puts back what a test may change (storage, fetch, timers, the URL).
      isolate: false,
    },
  },
  { plugins: [react()], test: { ...shared, name: "web-own-modules", include: OWN_MODULES } },
];

export default defineConfig({ test: { projects: WEB_PROJECTS } });
