// The suites that run in Node, in one vitest run (one start-up, files side by side): the pure rules (tests/domain),
// the data layer on libSQL, the web components and scripts (happy-dom), and the fakes' own tests. Each keeps its
// own config, so `npm run test:domain` (and the others) still run one suite alone.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["./vitest.domain.config.ts", "./vitest.libsql.config.ts", "./vitest.web.config.ts", "./vitest.fakes.config.ts"],
  },
});
