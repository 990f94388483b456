// Builds the React SPA in web/ into dist/client, the assets folder wrangler.toml serves.
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig, runnerImport, type Plugin } from "vite";

const webFile = (name: string) => fileURLToPath(new URL(`./web/${name}`, import.meta.url));

/** landing.html gets the landing page's markup at build time, so `/` shows at once with no app code. */
function prerenderLanding(): Plugin {
  return {
    name: "porchlight:prerender-landing",
    transformIndexHtml: {
      order: "pre",
      async handler(html, ctx) {
        if (!ctx.filename.endsWith("landing.html")) return html;
        const { module } = await runnerImport<{ renderLanding(): string }>(webFile("features/landing/render.tsx"), {
          configFile: false,
          logLevel: "error",
        });
        return html.replace("<!--landing-markup-->", module.renderLanding());
      },
    },
  };
}

export default defineConfig({
  root: "web",
  plugins: [react(), prerenderLanding()],
  build: {
    outDir: "../dist/client",
    emptyOutDir: true,
    target: "es2022",
    // No inline scripts or styles may be emitted: the CSP forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app shell (served for every app route), the landing page (served for `/` by the worker), and
      // the server-rendered shared report's own script and stylesheet (the worker reads the hashed tags
      // from the built shared-report.html), and the monthly client report's (client-report.html).
      input: {
        index: webFile("index.html"),
        landing: webFile("landing.html"),
        "shared-report": webFile("shared-report.html"),
        "client-report": webFile("client-report.html"),
      },
    },
  },
});
