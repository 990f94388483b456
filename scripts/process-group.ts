// Child processes that stop with the script that started them: each runs in a process group of its own, so a signal
// reaches what it started too (npx → wrangler → workerd, npx → vite), and the script waits until every group is empty.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** How long a group has to stop after the forwarded signal before it is killed outright. */
export const STOP_GRACE_MS = 10_000;
const POLL_MS = 100;

/** `spawn` in a new process group (the child leads it: its pid is the group's id). */
export function spawnGroup(cmd: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(cmd, args, { ...options, detached: true });
}

/** Whether any live process (not a zombie waiting to be reaped) is still in the group. */
export function groupAlive(pgid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // gone between the listing and the read
      }
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after its last ")".
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
    }
    return false;
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

async function waitEmpty(pgids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  let alive = pgids.filter(groupAlive);
  while (alive.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    alive = alive.filter(groupAlive);
  }
  return alive;
}

/**
 * Sends `signal` to each group, waits until all are empty, and kills what is still there after `graceMs`.
 * Resolves with the groups that survived even that (none, unless a process is stuck in the kernel).
 */
export async function stopGroups(pgids: number[], signal: NodeJS.Signals = "SIGTERM", graceMs = STOP_GRACE_MS): Promise<number[]> {
  for (const pgid of pgids) signalGroup(pgid, signal);
  const stubborn = await waitEmpty(pgids, graceMs);
  for (const pgid of stubborn) signalGroup(pgid, "SIGKILL");
  return waitEmpty(stubborn, graceMs);
}

/** How often the supervisor checks that the process that started it is still there. */
const PARENT_POLL_MS = 500;

const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * On SIGINT, SIGTERM or SIGHUP: forwards the signal to every child's group, waits for them, then exits with the
 * shell's code for that signal. `stopAll` does the same for other reasons to stop (one child ended).
 * When the process that started the supervisor goes away without passing a signal on (a shell between npm and the
 * script, a parent killed outright), the supervisor is re-parented: it then stops everything as on SIGTERM.
 */
export function superviseGroups(children: ChildProcess[], graceMs = STOP_GRACE_MS) {
  let stopping: Promise<never> | undefined;
  const stopAll = (signal: NodeJS.Signals, code: number): Promise<never> =>
    (stopping ??= stopGroups(
      children.flatMap((c) => (c.pid ? [c.pid] : [])),
      signal,
      graceMs,
    ).then(() => process.exit(code)));
  for (const signal of Object.keys(EXIT_CODES) as NodeJS.Signals[]) {
    process.on(signal, () => void stopAll(signal, EXIT_CODES[signal]!));
  }
  const parent = process.ppid;
  const parentWatch = setInterval(() => {
    if (process.ppid !== parent) void stopAll("SIGTERM", EXIT_CODES.SIGTERM!);
  }, PARENT_POLL_MS);
  parentWatch.unref();
  return { stopAll };
}
