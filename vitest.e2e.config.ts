// End-to-end journeys: Debian's Chromium (playwright-core) against `wrangler dev` with fakes on loopback.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One wrangler dev, one database: journeys run one file at a time.
    fileParallelism: false,
    // wrangler dev's local proxy now and then leaves a static-asset request unanswered (seen about
    // once in ten full runs, the page then waits forever for a chunk). A journey that meets it runs
    // again from the start; a real failure fails every attempt.
    retry: 2,
  },
});
