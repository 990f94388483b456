// Builds the web app, starts the fakes and a fresh `wrangler dev` on its own port and database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startFakes } from "../fakes";

const PORT = Number(process.env.E2E_PORT ?? 8799);
const STATE = ".e2e/state";
export const E2E_JWT_SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";
export const E2E_ADMIN = "owner@agency.test";

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: "pipe", encoding: "utf8", env: { ...process.env, CI: "true" } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
}

async function waitFor(url: string, ms: number, proc: ChildProcess, log: () => string) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`wrangler dev did not answer ${url} within ${ms} ms:\n${log()}`);
}

export default async function setup(project: TestProject) {
  const fakes = await startFakes();
  run("npx", ["vite", "build", "--logLevel", "error"]);
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE]);

  const vars: Record<string, string> = {
    ENVIRONMENT: "development",
    JWT_SECRET: E2E_JWT_SECRET,
    ADMIN_EMAILS: E2E_ADMIN,
    AI_API_KEY: "fake-key",
    AI_BASE_URL: fakes.ai.url,
    AI_TIMEOUT_MS: "5000",
    SERPAPI_KEY: "fake-key",
    REPORT_RETRY_BASE_SECONDS: "1",
  };
  const args = ["wrangler", "dev", "--port", String(PORT), "--ip", "127.0.0.1", "--persist-to", STATE];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  let output = "";
  const proc = spawn("npx", args, { stdio: "pipe", env: { ...process.env, CI: "true", NO_COLOR: "1" } });
  proc.stdout?.on("data", (d) => (output += d));
  proc.stderr?.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${PORT}`;
  await waitFor(`${baseUrl}/api/health`, 90_000, proc, () => output);

  project.provide("baseUrl", baseUrl);
  project.provide("adminEmail", E2E_ADMIN);

  return async () => {
    proc.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    if (proc.exitCode === null) proc.kill("SIGKILL");
    await fakes.close();
    if (process.env.E2E_DEBUG) console.log(output);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
  }
}
