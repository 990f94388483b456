// Vite's `?raw` imports (the file's text), used by tests that check settings against wrangler.toml.
declare module "*?raw" {
  const text: string;
  export default text;
}
