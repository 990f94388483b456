// Vite's `?raw` imports (the file's text), used by tests that check settings against wrangler.toml.
declare module "*?raw" {
  const text: string;
  export default text;
}

// Vite's `import.meta.glob` (tests/worker/platform/metering.test.ts reads the worker's sources with it).
interface ImportMeta {
  glob(patterns: string | string[], options: { query: "?raw"; import: "default"; eager: true }): Record<string, unknown>;
}
