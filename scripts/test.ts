// `npm test`: every suite once, in two lanes side by side, with each step's verdict and time at the end: the static
// checks (themselves side by side), the worker tests and the Node suites one after another in the first, the journeys
// in the second (their output printed when they end). The journeys wait on browsers, servers and queues more than
// they compute, so beside the others on a 2-core machine the whole run took 617 s against 883 s one after another
// (issue 40, item 8). It failed before only because the access matrix's long test passed its limit; since
// tests/worker/pool-patch.ts that test takes seconds. A failed step ends its lane (as `&&` did). Exit 1 when any step
// failed.
// Usage: tsx scripts/test.ts
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

export type Step = { name: string; command: string; args: string[] };
export type Lane = { name: string; steps: Step[]; live: boolean };

const npm = (name: string, script: string): Step => ({ name, command: "npm", args: ["run", "--silent", script] });

/** What `npm test` runs, lane by lane; every suite once. */
export const LANES: Lane[] = [
  {
    name: "everything",
    live: true,
    steps: [{ name: "checks", command: "npx", args: ["tsx", "scripts/checks.ts"] }, npm("worker", "test:worker"), npm("node", "test:node")],
  },
  { name: "journeys", live: false, steps: [npm("e2e", "test:e2e")] },
];

/** Steps of no lane: the first lane to finish its own steps (all passed) runs them, in this order. */
export const AFTER: Step[] = [];

export type StepResult = { name: string; ok: boolean; seconds: number };

function runStep(step: Step, live: boolean): Promise<{ ok: boolean; seconds: number; output: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { stdio: live ? "inherit" : ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => out.push(b));
    child.on("close", (code) => resolve({ ok: code === 0, seconds: (Date.now() - started) / 1000, output: Buffer.concat(out).toString() }));
  });
}

async function runLane(lane: Lane, after: Step[]): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (let i = 0; ; i++) {
    const step = i < lane.steps.length ? lane.steps[i] : after.shift();
    if (!step) break;
    const { ok, seconds, output } = await runStep(step, lane.live);
    if (!lane.live) process.stdout.write(output);
    console.log(`${ok ? "ok" : "FAILED"}: ${step.name} (${seconds.toFixed(1)} s)\n`);
    results.push({ name: step.name, ok, seconds });
    if (!ok) break;
  }
  return results;
}

/** The closing lines: each step's verdict and time, the steps a failure skipped, and the whole run's time. */
export function summary(steps: Step[], results: StepResult[], seconds: number): { ok: boolean; lines: string[] } {
  const lines = steps.map((step) => {
    const r = results.find((x) => x.name === step.name);
    return r ? `${r.ok ? "ok    " : "FAILED"} ${step.name} ${r.seconds.toFixed(1)} s` : `skipped ${step.name} (an earlier step of its lane failed)`;
  });
  const ok = steps.every((step) => results.some((r) => r.name === step.name && r.ok));
  return { ok, lines: [...lines, `npm test: ${ok ? "passed" : "FAILED"} in ${seconds.toFixed(1)} s`] };
}

/** Every step `npm test` runs, once each. */
export const ALL_STEPS: Step[] = [...LANES.flatMap((lane) => lane.steps), ...AFTER];

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const started = Date.now();
  const after = [...AFTER];
  const results = await Promise.all(LANES.map((lane) => runLane(lane, after)));
  const { ok, lines } = summary(ALL_STEPS, results.flat(), (Date.now() - started) / 1000);
  console.log(lines.join("\n"));
  process.exit(ok ? 0 : 1);
}
