// Web component tests: happy-dom + Testing Library, outside workerd.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  test: {
    name: "web",
    environment: "happy-dom",
    include: ["tests/web/**/*.test.{ts,tsx}", "tests/scripts/**/*.test.ts"],
    setupFiles: ["./tests/web/setup.ts"],
    restoreMocks: true,
  },
});
