// The loopback fakes' own tests, in Node: they must behave like the real services to the real `openai` SDK.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "fakes",
    environment: "node",
    include: ["tests/fakes/**/*.test.ts"],
  },
});
