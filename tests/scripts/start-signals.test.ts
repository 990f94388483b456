// `npm start` stops what it started: a SIGTERM or SIGINT to it reaches its children's whole process groups (wrangler
// and workerd, npx and vite), it waits for them, and kills a child that ignores the signal. Real processes, no network
// but loopback. The real start script would build, migrate and start workerd (minutes here): package.json's own start
// command is run by npm with the stand-in fixture in place of scripts/start.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { groupAlive } from "../../scripts/process-group";

const TSX = "node_modules/.bin/tsx";
const FIXTURE = "tests/scripts/fixtures/supervisor.ts";

type Started = { pid: number; pids: number[]; port: number };

/** Reads the fixture's JSON line from a process's stdout (npm prints its own lines first). */
async function startedLine(proc: ChildProcess): Promise<Started> {
  for await (const line of createInterface({ input: proc.stdout! })) {
    if (line.startsWith("{")) return JSON.parse(line) as Started;
  }
  throw new Error("the supervisor ended before its children started");
}

function processAlive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  return state !== "Z" && state !== "X";
}

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((done) => {
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}

async function waitUntil(check: () => boolean, ms: number) {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

const env = { ...process.env, STOP_GRACE_MS: "1500" };
const leftovers: number[] = [];
const scriptPids: number[] = [];
const tempDirs: string[] = [];
afterEach(() => {
  // A failed run must not leave sleeping processes behind on the machine.
  for (const pgid of leftovers.splice(0)) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const pid of scriptPids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("npm start's children", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`all stop, grandchildren included, before it exits on ${signal}`, async () => {
      const proc = spawn(TSX, [FIXTURE], { stdio: ["ignore", "pipe", "inherit"], env });
      const { pids } = await startedLine(proc);
      leftovers.push(...pids);
      expect(pids).toHaveLength(2);
      expect(pids.every(groupAlive)).toBe(true);
      const exited = once(proc, "exit");
      // tsx relays the signal to the script it runs.
      proc.kill(signal);
      const [code, bySignal] = (await exited) as [number | null, NodeJS.Signals | null];
      expect(bySignal ?? code).toBe(signal === "SIGTERM" ? 143 : 130);
      // Checked once it has exited, not waited for: nothing of either group is left, the one ignoring SIGTERM included.
      expect(pids.filter(groupAlive)).toEqual([]);
    }, 30_000);
  }

  it("all stop when a process manager sends SIGTERM to the npm process (docker stop, systemd), and the port is freed", async () => {
    // package.json's start command as npm runs it (in `sh -c`), the stand-in fixture in place of the start script.
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(scripts.start).toContain("scripts/start.ts");
    const dir = mkdtempSync(join(tmpdir(), "npm-start-"));
    tempDirs.push(dir);
    symlinkSync(resolve("node_modules"), join(dir, "node_modules"));
    const start = scripts.start.replace("scripts/start.ts", resolve(FIXTURE));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "start-under-test", private: true, scripts: { start } }));

    const npm = spawn("npm", ["start"], { cwd: dir, stdio: ["ignore", "pipe", "inherit"], env });
    const { pid, pids, port } = await startedLine(npm);
    leftovers.push(...pids);
    scriptPids.push(pid);
    expect(port).toBeGreaterThan(0);
    expect(await portFree(port)).toBe(false);
    const exited = once(npm, "exit");
    npm.kill("SIGTERM");
    await exited;
    // npm waits for its script: once it has exited, the script, every child and grandchild are gone and the port free.
    expect(processAlive(pid)).toBe(false);
    expect(pids.filter(groupAlive)).toEqual([]);
    expect(await portFree(port)).toBe(true);
  }, 30_000);

  it("all stop when the process that started the script dies without passing a signal on", async () => {
    // A shell that does not forward signals, killed outright: the script is re-parented and stops everything itself.
    const shell = spawn("sh", ["-c", `node --import tsx ${FIXTURE}; echo ended`], { stdio: ["ignore", "pipe", "inherit"], env });
    const { pid, pids, port } = await startedLine(shell);
    leftovers.push(...pids);
    scriptPids.push(pid);
    expect(await portFree(port)).toBe(false);
    shell.kill("SIGKILL");
    await waitUntil(() => !processAlive(pid) && pids.every((g) => !groupAlive(g)), 10_000);
    expect(pids.filter(groupAlive)).toEqual([]);
    expect(processAlive(pid)).toBe(false);
    expect(await portFree(port)).toBe(true);
  }, 30_000);
});
