// Lint: typescript-eslint's recommended rules, React hooks rules for the web app, and the layout's import boundaries.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Where the web app may reach into the worker: pure rules (worker/domain, a capability's or the platform's rules/) and,
 * as types only, anything. */
const WEB_BOUNDARY = {
  patterns: [
    {
      regex: "(^|/)worker/(?!domain/|features/[^/]+/rules/|platform/[^/]+/rules/)",
      allowTypeImports: true,
      message: "The web app imports only pure rules (worker/domain, worker/*/<name>/rules), and types (import type) from the rest of the worker.",
    },
    {
      group: ["**/scripts/**", "**/tests/**"],
      message: "The web app does not import scripts or tests.",
    },
  ],
};

/** A web feature's insides are its own: another feature uses its index.ts. */
const WEB_FEATURE_INSIDES = "A web feature uses another only through its index.ts (or ssr.ts, the pure views the worker renders too; web/design, web/app and web/lib are free): export what you need there.";
/** web/design and web/lib are below the features and the shell. */
const WEB_BELOW = "web/design and web/lib do not import a feature or the shell: take the value as a parameter, or move the code up.";

/** A capability's insides are its own: another capability uses its index.ts, its pure rules/ and its tables.ts (a
 * join or a foreign key across capabilities reads the table; tables.ts holds declarations only). */
const CAPABILITY_INSIDES = "A capability uses another only through its index.ts (or its pure rules/, or its tables.ts): export what you need there.";
/** The platform sits below every capability: data and calls flow down, events flow up through worker/platform/events. */
const PLATFORM_BELOW = "The platform does not import a capability; raise an event (worker/platform/events) or take the value as a parameter.";
const PLATFORM_NO_FEATURES = { regex: "(^|/)features/", message: PLATFORM_BELOW };
/** The web app sits above the worker: only the entry's worker/ssr.tsx hands its views down (types too stay out). */
const WORKER_NO_WEB = {
  regex: "(^|/)web/",
  message: "The worker does not import the web app: worker/ssr.tsx hands the web's views to the capability that renders them (a port it declares).",
};

/** What a tables.ts may import: drizzle, the shared columns (platform/db, platform/jobs), other tables.ts, pure rules. */
const TABLES_IMPORT_ONLY = {
  regex: "^(?!drizzle-orm($|/)|.*/tables$|.*/db/(columns|refs)$|.*/jobs/columns$|.*/rules/[^/]+$)",
  allowTypeImports: true,
  message: "A tables.ts imports drizzle, the shared columns (platform/db, platform/jobs), other tables.ts and pure rules only.",
};

/** What a pure rules file (worker/domain, any rules/ folder) may import: zod and other pure rules (types from anywhere). */
const PURE_RULES_IMPORT_ONLY = {
  regex: "^(?!zod$|zod/|\\./[^/]+$|.*/rules/[^/]+$|.*/domain/[^/]+$)",
  allowTypeImports: true,
  message: "Pure rules import zod and other pure rules only: no database, routes, services or Node.",
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
    // The web app by feature (web/features/<name>): another feature only through its index.ts; the design system
    // (web/design), the shell (web/app) and the plumbing (web/lib) freely. CSS too: no feature imports another's.
    files: ["web/features/*/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...WEB_BOUNDARY.patterns, { regex: "^\\.\\./[^./][^/]*/(?!index$|ssr$)", message: WEB_FEATURE_INSIDES }] }],
    },
  },
  {
    files: ["web/features/*/*/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...WEB_BOUNDARY.patterns, { regex: "^\\.\\./\\.\\./[^./][^/]*/(?!index$|ssr$)", message: WEB_FEATURE_INSIDES }] }],
    },
  },
  {
    // The shell (web/app, the route table, the entry) reaches a feature through its index.ts too; pages load lazily.
    files: ["web/app/**/*.{ts,tsx}", "web/routes.tsx", "web/main.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...WEB_BOUNDARY.patterns, { regex: "(^|/)features/[^/]+/(?!index$|ssr$)", message: WEB_FEATURE_INSIDES }] }],
    },
  },
  {
    // The design system and the plumbing sit below every feature and the shell.
    files: ["web/design/**/*.{ts,tsx}", "web/lib/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...WEB_BOUNDARY.patterns, { regex: "^\\.\\./(features|app)(/|$)", message: WEB_BELOW }] }],
    },
  },
  {
    files: ["worker/**/*.{ts,tsx}"],
    ignores: ["worker/ssr.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [WORKER_NO_WEB] }],
    },
  },
  {
    // Routes never import routes: what two routes share is the capability's service, queries or rules.
    files: ["worker/features/**/*routes.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [WORKER_NO_WEB, { regex: "routes$", message: "A route does not import another route; move the shared part into the capability's service." }] },
      ],
    },
  },
  {
    // A capability's own files: others' insides stay out of reach.
    files: ["worker/features/*/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^\\.\\./[^./][^/]*/(?!rules/|index$|tables$)", message: CAPABILITY_INSIDES }] },
      ],
    },
  },
  {
    files: ["worker/features/*/*/**/*.{ts,tsx}"],
    ignores: ["worker/features/*/rules/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^\\.\\./\\.\\./[^./][^/]*/(?!rules/|index$|tables$)", message: CAPABILITY_INSIDES }] },
      ],
    },
  },
  {
    // Not even a capability's rules or types: what the platform needs of them is the platform's own contract, kept in
    // its rules/ (the capability re-exports it).
    files: ["worker/platform/**/*.{ts,tsx}"],
    ignores: ["worker/platform/*/rules/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [PLATFORM_NO_FEATURES] }],
    },
  },
  {
    // A tables.ts holds declarations only (others may import it): drizzle, the shared columns and other tables. In the
    // platform, never a capability's (it names those it reads in platform/db/refs.ts).
    files: ["worker/**/tables.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [TABLES_IMPORT_ONLY],
        },
      ],
    },
  },
  {
    files: ["worker/platform/**/tables.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [TABLES_IMPORT_ONLY, PLATFORM_NO_FEATURES] },
      ],
    },
  },
  {
    // Pure rules (worker/domain, every rules/ folder) are importable by the web: zod and other pure rules only, no
    // database, bindings, routes, services or Node (types from anywhere are fine).
    files: ["worker/domain/**/*.ts", "worker/**/rules/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [PURE_RULES_IMPORT_ONLY],
        },
      ],
    },
  },
  {
    // The platform's pure rules and worker/domain sit below every capability too.
    files: ["worker/domain/**/*.ts", "worker/platform/**/rules/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [PURE_RULES_IMPORT_ONLY, PLATFORM_NO_FEATURES] }],
    },
  },
  {
    // Outside services are reached only through their client in worker/platform/providers/ (base URL, key, time-out, error
    // mapping), and every paid call there takes a reservation from the meter first: "every paid call is metered"
    // is then visible in one folder (docs/architecture.md, "The boundaries lint keeps").
    files: ["worker/**/*.{ts,tsx}"],
    ignores: ["worker/platform/providers/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "Reach an outside service through its client in worker/platform/providers/ (and reserve from worker/platform/metering first)." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "globalThis", property: "fetch", message: "Reach an outside service through its client in worker/platform/providers/." },
        { object: "self", property: "fetch", message: "Reach an outside service through its client in worker/platform/providers/." },
      ],
      // The worker logs through worker/platform/log.ts, which redacts emails and phone numbers and stamps the request id.
      "no-console": "error",
    },
  },
  {
    files: ["worker/platform/log.ts"],
    rules: { "no-console": "off" },
  },
);
