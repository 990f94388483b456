// The data layer on libSQL: the shared db-layer tests in Node against @libsql/client with a `file:` database.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "libsql",
    include: ["tests/libsql/**/*.test.ts"],
    environment: "node",
  },
});
