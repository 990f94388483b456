// The worker served locally for the journeys and the benchmarks (dev-server.ts starts this as its own process): what
// `wrangler dev` serves (wrangler.toml, the same bundling, local D1, queues and R2 in the state folder, the built web
// app as assets), through Wrangler's own API, so that two things the CLI always does are off:
// - the devtools inspector: with it on, every request and every log line also passed through Wrangler's Node process
//   (500 requests to /api/health: 4.6 s of that process's CPU; 1.3 s with it off);
// - logging below warnings, which Wrangler's Node process also formats and writes to its debug log file (with both off:
//   0.05 s for the same requests). Warnings and errors still print; E2E_DEBUG=1 prints everything.
// Also off: reloading on file changes (a run serves one build). Stops on SIGTERM or SIGINT.
// Usage: tsx tests/e2e/local-worker.ts <port> <state folder> <env file> [all] ("all": every log line, as the benchmarks read them)
import { unstable_startWorker } from "wrangler";

const [port, state, envFile, logs] = process.argv.slice(2);
if (!port || !state || !envFile) throw new Error("usage: tsx tests/e2e/local-worker.ts <port> <state folder> <env file>");

const worker = await unstable_startWorker({
  config: "wrangler.toml",
  envFiles: [envFile],
  dev: {
    server: { hostname: "127.0.0.1", port: Number(port) },
    inspector: false,
    persist: state,
    // GET /__scheduled runs the cron handler now (the journeys drive the sweep instead of waiting 5 minutes).
    testScheduled: true,
    logLevel: process.env.E2E_DEBUG || logs === "all" ? "log" : "warn",
    watch: false,
    liveReload: false,
  },
});
await worker.ready;
console.log(`local worker ready on ${String(await worker.url)}`);

async function stop() {
  await worker.dispose().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
