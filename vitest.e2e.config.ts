// End-to-end journeys: Debian's Chromium (playwright-core) against the local worker (tests/e2e/dev-server.ts) with fakes on loopback.
import { defineConfig } from "vitest/config";

/**
 * Journeys that never act as the shared admin (owner@agency.test). `npm run test:e2e` (scripts/e2e.ts) runs the admin's
 * journeys and these (then the brand's) as two vitest runs side by side, each with its own dev server, database and
 * fakes; a plain `vitest run --config vitest.e2e.config.ts` runs them all, one at a time, against one.
 */
const OWN_ACCOUNTS = ["auth", "content", "gbp", "reviews", "settings-posts", "tools-billing"].map((f) => `tests/e2e/${f}.test.ts`);
/** The agency's brand changes what every screen and mail says: that journey runs after the others of its run. */
const ALONE = ["tests/e2e/brand.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    // One dev server and its fakes for the projects of a run (global-setup.ts starts them once).
    globalSetup: ["./tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // wrangler dev's local proxy now and then leaves a static-asset request unanswered (seen about
    // once in ten full runs, the page then waits forever for a chunk). A journey that meets it runs
    // again from the start; a real failure fails every attempt.
    retry: 2,
    // The journey files of a run share one Node module graph: playwright-core, the fakes and the helpers load once,
    // not once a file (importing them was 88 s of the shared admin's 516 s). Each file still launches its own browser.
    isolate: false,
    projects: [
      {
        // The shared admin's journeys see each other's prospects, reports and settings: one file at a time. Groups are
        // numbered from 1: vitest runs one-at-a-time projects left in group 0 after every numbered group, which put the
        // brand's journey first.
        extends: true,
        test: { name: "journeys-admin", include: ["tests/e2e/**/*.test.ts"], exclude: [...OWN_ACCOUNTS, ...ALONE], fileParallelism: false, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: "journeys", include: OWN_ACCOUNTS, fileParallelism: false, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: "journeys-brand", include: ALONE, fileParallelism: false, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
