// `npm start`: first-run set-up (local secrets, web build, local migrations), then `wrangler dev` with the web
// app rebuilt on every change (`vite build --watch`), so an edit shows on the next reload without a restart.
import { spawnSync } from "node:child_process";
import { ensureDevVars } from "./dev-vars";
import { spawnGroup, superviseGroups } from "./process-group";

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, CI: "true" } });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

const { created, added } = ensureDevVars();
if (created) console.log("• Wrote .dev.vars with a fresh random JWT_SECRET and ENCRYPTION_KEY (local only, git-ignored).");
else if (added.length > 0) console.log(`• Added to .dev.vars what a local run needs: ${added.join(", ")} (your values are kept).`);

console.log("• Building the web app…");
run("npx", ["vite", "build", "--logLevel", "warn"]);

console.log("• Applying migrations to the local database (libSQL when LIBSQL_URL is set, else D1)…");
run("npx", ["tsx", "scripts/db-migrate.ts"]);

const port = process.env.PORT ?? "8787";
console.log(`• Starting Porchlight on http://localhost:${port}\n`);
// Each in a process group of its own, so stopping `npm start` (Ctrl-C, SIGTERM) stops what they started too
// (workerd under wrangler, the watcher under npx) and waits for it: nothing stays up holding the port. Their stdin is
// closed: outside the terminal's foreground group a read of it would stop them (SIGTTIN), so wrangler's hotkeys are off.
const CHILD_STDIO = ["ignore", "inherit", "inherit"] as const;
const dev = spawnGroup("npx", ["wrangler", "dev", "--port", port, "--ip", "127.0.0.1", ...process.argv.slice(2)], {
  stdio: [...CHILD_STDIO],
  // No account and no network: skip wrangler's usage metrics and Miniflare's fetch of a real
  // `request.cf` object (a placeholder is used locally either way).
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
// The first build above already ran: the watcher only rebuilds what changes (wrangler dev serves dist/client as it is now).
const web = spawnGroup("npx", ["vite", "build", "--watch", "--logLevel", "warn"], { stdio: [...CHILD_STDIO] });
const { stopAll } = superviseGroups([dev, web]);
dev.on("exit", (code) => void stopAll("SIGTERM", code ?? 0));
web.on("exit", (code) => {
  if (code) console.error(`\n✗ the web watcher stopped (exit ${code}); restart npm start to rebuild on change`);
});
