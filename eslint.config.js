// Lint: typescript-eslint's recommended rules, React hooks rules for the web app, and the layout's import boundaries.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Where the web app may reach into the worker: its pure rules (worker/domain) and, as types only, anything. */
const WEB_BOUNDARY = {
  patterns: [
    {
      group: ["**/worker/**", "!**/worker/domain", "!**/worker/domain/**"],
      allowTypeImports: true,
      message: "The web app imports only worker/domain, and types (import type) from the rest of the worker.",
    },
    {
      group: ["**/queues/**", "**/scripts/**", "**/tests/**"],
      message: "The web app does not import the queue consumers, scripts or tests.",
    },
  ],
};

export default tseslint.config(
  { ignores: ["dist/**", ".wrangler/**", ".e2e/**", "node_modules/**", "worker-configuration.d.ts", "**/*.tsbuildinfo"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a handler's required parameter, a skipped tuple slot).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Tests and fakes build loose fixtures; `any` there is a choice, not an accident.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": ["error", WEB_BOUNDARY],
    },
  },
  {
    // Routes never import routes: shared code goes to worker/domain, worker/db, worker/reports or worker/auth.
    files: ["worker/routes/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["./*", "../routes/*"], message: "A route does not import another route; move the shared part out of worker/routes." }] },
      ],
    },
  },
  {
    // worker/domain is pure and importable by the web: no database, bindings, routes or Node.
    files: ["worker/domain/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["../db/*", "../routes/*", "../reports/*", "../auth/*", "../providers/*", "../metering/*", "node:*", "hono", "hono/*", "drizzle-orm", "drizzle-orm/*"],
              allowTypeImports: true,
              message: "worker/domain holds pure rules: no database, routes, services or Node.",
            },
          ],
        },
      ],
    },
  },
  {
    // Outside services are reached only through their client in worker/providers/ (base URL, key, time-out, error
    // mapping), and every paid call there takes a reservation from the meter first: "every paid call is metered"
    // is then visible in one folder (ARCHITECTURE.md, "Capabilities being added").
    files: ["worker/**/*.{ts,tsx}", "queues/**/*.ts"],
    ignores: ["worker/providers/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "Reach an outside service through its client in worker/providers/ (and reserve from worker/metering first)." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "globalThis", property: "fetch", message: "Reach an outside service through its client in worker/providers/." },
        { object: "self", property: "fetch", message: "Reach an outside service through its client in worker/providers/." },
      ],
      // The worker logs through worker/log.ts, which redacts emails and phone numbers and stamps the request id.
      "no-console": "error",
    },
  },
  {
    files: ["worker/log.ts"],
    rules: { "no-console": "off" },
  },
);
