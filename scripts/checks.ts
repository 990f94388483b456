// The static checks of `npm test` side by side: lint, the Env drift check, typecheck and the deploy check read the
// same files and share nothing, so one waiting on another only cost time (about a minute on a 2-core machine).
// Each one's output is printed whole when it ends, with its time; the exit code is 1 when any of them failed.
// Usage: tsx scripts/checks.ts
import { spawn } from "node:child_process";

const CHECKS: [name: string, args: string[]][] = [
  ["lint", ["run", "lint"]],
  ["types --check", ["run", "types", "--", "--check"]],
  // The two typechecks share nothing either (the web's project and the Node scripts' and tests'): side by side too.
  ["typecheck:web", ["run", "typecheck:web"]],
  ["typecheck:node", ["run", "typecheck:node"]],
  ["check:bundle", ["run", "check:bundle"]],
];

function run(name: string, args: string[]): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" } });
    const out: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => out.push(b));
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(out));
      console.log(`${code === 0 ? "ok" : "FAILED"}: ${name} (${seconds} s)\n`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(([name, args]) => run(name, args)));
process.exit(results.every(Boolean) ? 0 : 1);
