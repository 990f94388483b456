// `npm start` stops what it started: a SIGTERM or SIGINT to it reaches its children's whole process groups (wrangler
// and workerd, npx and vite), it waits for them, and kills a child that ignores the signal. Real processes, no network.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { groupAlive } from "../../scripts/process-group";

const TSX = "node_modules/.bin/tsx";
const FIXTURE = "tests/scripts/fixtures/supervisor.ts";

async function startSupervisor() {
  const proc = spawn(TSX, [FIXTURE], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, STOP_GRACE_MS: "1500" } });
  const lines = createInterface({ input: proc.stdout! });
  const [line] = (await once(lines, "line")) as [string];
  const { pids } = JSON.parse(line) as { pids: number[] };
  return { proc, pids };
}

describe("npm start's children", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`all stop, grandchildren included, before it exits on ${signal}`, async () => {
      const { proc, pids } = await startSupervisor();
      expect(pids).toHaveLength(2);
      expect(pids.every(groupAlive)).toBe(true);
      const exited = once(proc, "exit");
      // tsx relays the signal to the script it runs, as it does for `npm start`.
      proc.kill(signal);
      const [code, bySignal] = (await exited) as [number | null, NodeJS.Signals | null];
      expect(bySignal ?? code).toBe(signal === "SIGTERM" ? 143 : 130);
      // Checked once it has exited, not waited for: nothing of either group is left, the one ignoring SIGTERM included.
      expect(pids.filter(groupAlive)).toEqual([]);
    }, 30_000);
  }
});
