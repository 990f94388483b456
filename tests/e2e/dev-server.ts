// Starts the worker on its own port and fresh local database (used by e2e and the benchmarks): local-worker.ts, what
// `wrangler dev` serves.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrateLocalD1 } from "./local-d1";

export function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { stdio: "pipe", encoding: "utf8", env: { ...process.env, CI: "true", ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
}

export function buildWeb() {
  // Vitest sets NODE_ENV=test, which children inherit; the journeys must see the production build.
  run("npx", ["vite", "build", "--logLevel", "error", "--mode", "production"], { NODE_ENV: "production" });
  // Issue 40: the app shell's initial JavaScript stays within its budget (every `npm test` builds the app here).
  run("npx", ["tsx", "scripts/shell-size.ts", "--check"]);
}

export interface DevServer {
  baseUrl: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startDevServer(opts: {
  port: number;
  state: string;
  vars: Record<string, string>;
  /** "all": every log line in `output()` (the benchmarks read the worker's info lines); else warnings and errors. */
  logs?: "all" | "warnings";
}): Promise<DevServer> {
  rmSync(opts.state, { recursive: true, force: true });
  mkdirSync(opts.state, { recursive: true });
  await migrateLocalD1(opts.state);

  // An explicit env file makes wrangler ignore the developer's own .dev.vars, so runs are reproducible.
  const envFile = join(opts.state, "server.env");
  writeFileSync(envFile, Object.entries(opts.vars).map(([k, v]) => `${k}=${v}`).join("\n") + "\n");
  // Not `wrangler dev`: the same worker through Wrangler's API with the devtools inspector off (local-worker.ts).
  const args = ["tsx", "tests/e2e/local-worker.ts", String(opts.port), opts.state, envFile, opts.logs ?? "warnings"];
  let output = "";
  const proc = spawn("npx", args, {
    stdio: "pipe",
    // No network here: skip wrangler's metrics and Miniflare's fetch of a real `request.cf` object.
    env: { ...process.env, CI: "true", NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    detached: true,
  });
  proc.stdout?.on("data", (d) => (output += d));
  proc.stderr?.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${opts.port}`;

  const stop = async () => {
    if (proc.exitCode !== null || !proc.pid) return;
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
    for (let i = 0; i < 20 && proc.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
    if (proc.exitCode === null) {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the local worker exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the local worker did not answer within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { baseUrl, output: () => output, stop };
}

/** Runs the worker's cron handler once (wrangler dev --test-scheduled), as Cloudflare's trigger would. */
export async function runCron(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
  if (!res.ok) throw new Error(`the cron handler answered ${res.status}: ${await res.text()}`);
}

/**
 * Opens the email-confirmation link a sign-up left in the local development outbox (what makes an
 * ADMIN_EMAILS address admin), as a developer would.
 */
export async function confirmThroughOutbox(baseUrl: string, email: string) {
  const outbox = (await (await fetch(`${baseUrl}/auth/v1/outbox?email=${encodeURIComponent(email)}`)).json()) as {
    messages: { subject: string; body: string }[];
  };
  const mail = outbox.messages.find((m) => m.subject === "Confirm your Porchlight email address");
  const link = mail && /(http\S+)/.exec(mail.body)?.[1];
  if (!link) throw new Error("no confirmation mail for the address in the local outbox");
  // The link names APP_ORIGIN or the request's origin; open it on this server either way.
  const confirm = await fetch(new URL(new URL(link).pathname + new URL(link).search, baseUrl), { redirect: "manual" });
  if (confirm.status !== 303 || !confirm.headers.get("Location")?.includes("access_token=")) {
    throw new Error(`admin confirmation failed: ${confirm.status} ${confirm.headers.get("Location")}`);
  }
}

/**
 * The link in the newest message with `subject` (exact, or a pattern) the fake mail provider delivered to `to` (the mail-out
 * queue delivers within a few seconds); waits up to 30 s for it.
 */
export async function deliveredLink(mailUrl: string, to: string, subject: string | RegExp, after = 0): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { messages } = (await (await fetch(`${mailUrl}/__messages?to=${encodeURIComponent(to.toLowerCase())}`)).json()) as {
      messages: { subject: string; text: string }[];
    };
    const found = messages.filter((m) => (typeof subject === "string" ? m.subject === subject : subject.test(m.subject)));
    const link = found.length > after ? /(http\S+)/.exec(found[found.length - 1]!.text)?.[1] : undefined;
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail for ${to} at the fake provider`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
