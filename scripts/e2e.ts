// `npm run test:e2e`: the browser journeys in lanes side by side, each a vitest run against its own dev server,
// database and fakes (tests/e2e/global-setup.ts), so the shared admin of one lane never sees another's prospects.
// One vitest run cannot hold them side by side: it runs every project whose files go one at a time as one queue.
// The web app is built once, here, for all. The first lane prints as it goes, the others when they end; exit 1 when
// any failed.
// Usage: tsx scripts/e2e.ts [vitest arguments, e.g. a file to run]
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { buildWeb } from "../tests/e2e/dev-server";

export type E2eLane = { name: string; projects: string[]; portOffset: number; live: boolean };

/**
 * Every journey project once (vitest.e2e.config.ts), in two lanes that take about as long. A third lane (the admin's
 * journeys split in two) was slower on a 2-core machine: three browsers and three servers wait on each other.
 */
export const E2E_LANES: E2eLane[] = [
  { name: "shared admin", projects: ["journeys-admin"], portOffset: 0, live: true },
  { name: "own accounts, then the brand", projects: ["journeys", "journeys-brand"], portOffset: -2, live: false },
];

function runLane(lane: E2eLane, args: string[], basePort: number): Promise<{ ok: boolean; seconds: number }> {
  const started = Date.now();
  const projects = lane.projects.flatMap((p) => ["--project", p]);
  return new Promise((resolve) => {
    const child = spawn("npx", ["vitest", "run", "--config", "vitest.e2e.config.ts", "--passWithNoTests", ...projects, ...args], {
      stdio: lane.live ? "inherit" : ["ignore", "pipe", "pipe"],
      env: { ...process.env, E2E_PORT: String(basePort + lane.portOffset), E2E_WEB_BUILT: "1" },
    });
    const out: Buffer[] = [];
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => out.push(b));
    child.on("close", (code) => {
      if (!lane.live) process.stdout.write(Buffer.concat(out));
      resolve({ ok: code === 0, seconds: (Date.now() - started) / 1000 });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const started = Date.now();
  buildWeb();
  const basePort = Number(process.env.E2E_PORT ?? 8799);
  const results = await Promise.all(E2E_LANES.map((lane) => runLane(lane, process.argv.slice(2), basePort)));
  E2E_LANES.forEach((lane, i) => console.log(`${results[i]!.ok ? "ok    " : "FAILED"} journeys: ${lane.name} ${results[i]!.seconds.toFixed(1)} s`));
  console.log(`journeys: ${results.every((r) => r.ok) ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
