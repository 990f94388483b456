// The suites that run in Node, in one vitest run (one start-up, files side by side): the pure rules (tests/domain),
// the data layer on libSQL, the web components and scripts (happy-dom), and the fakes' own tests. Each keeps its
// own config, so `npm run test:domain` (and the others) still run one suite alone.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { WEB_PROJECTS } from "./vitest.web.config";

export default defineConfig({
  test: {
    // Two files at once even on a 2-core machine, where vitest's default (cores − 1) runs one: `npm test` runs these
    // suites alone, so the second core was idle (the web tests took 229 s with one worker).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ["./vitest.domain.config.ts", "./vitest.libsql.config.ts", ...WEB_PROJECTS, "./vitest.fakes.config.ts"],
  },
});
