// `npm start`: first-run set-up (local secrets, web build, local migrations), then `wrangler dev` with the web
// app rebuilt on every change (`vite build --watch`), so an edit shows on the next reload without a restart.
import { spawn, spawnSync } from "node:child_process";
import { ensureDevVars } from "./dev-vars";

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, CI: "true" } });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

const { created } = ensureDevVars();
if (created) console.log("• Wrote .dev.vars with a fresh random JWT_SECRET and ENCRYPTION_KEY (local only, git-ignored).");

console.log("• Building the web app…");
run("npx", ["vite", "build", "--logLevel", "warn"]);

console.log("• Applying migrations to the local database (libSQL when LIBSQL_URL is set, else D1)…");
run("npx", ["tsx", "scripts/db-migrate.ts"]);

const port = process.env.PORT ?? "8787";
console.log(`• Starting Porchlight on http://localhost:${port}\n`);
const dev = spawn("npx", ["wrangler", "dev", "--port", port, "--ip", "127.0.0.1", ...process.argv.slice(2)], {
  stdio: "inherit",
  // No account and no network: skip wrangler's usage metrics and Miniflare's fetch of a real
  // `request.cf` object (a placeholder is used locally either way).
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
// The first build above already ran: the watcher only rebuilds what changes (wrangler dev serves dist/client as it is now).
const web = spawn("npx", ["vite", "build", "--watch", "--logLevel", "warn"], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    web.kill(sig);
    dev.kill(sig);
  });
}
dev.on("exit", (code) => {
  web.kill("SIGTERM");
  process.exit(code ?? 0);
});
web.on("exit", (code) => {
  if (code) console.error(`\n✗ the web watcher stopped (exit ${code}); restart npm start to rebuild on change`);
});
