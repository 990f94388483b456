// Domain tests: the pure rules in worker/domain (shared by the worker and the web), run in Node. They need no
// bindings, so they skip the per-file workerd start-up the worker suite pays (about 8 s a file).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "domain",
    environment: "node",
    include: ["tests/domain/**/*.test.ts"],
  },
});
