// Builds the React SPA in web/ into dist/client, the assets folder wrangler.toml serves.
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: "web",
  plugins: [react()],
  build: {
    outDir: "../dist/client",
    emptyOutDir: true,
    target: "es2022",
    // No inline scripts or styles may be emitted: the CSP forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL("./web/index.html", import.meta.url)),
        // The server-rendered shared report's own script and stylesheet (issue 10): the worker reads the
        // hashed tags from the built shared-report.html.
        "shared-report": fileURLToPath(new URL("./web/shared-report.html", import.meta.url)),
      },
    },
  },
});
