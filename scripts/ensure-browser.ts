// Before the browser journeys: find Chromium, or install Debian's when we can, or stop with the one command to run.
// Usage: tsx scripts/ensure-browser.ts [--dry-run]   (--dry-run prints the decision and changes nothing)
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { DEBIAN_CHROMIUM, planBrowser, type BrowserPlan } from "./browser-plan";

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

export function currentPlan(): BrowserPlan {
  return planBrowser({
    chromiumPath: process.env.CHROMIUM_PATH,
    isExecutable,
    isRoot: process.getuid?.() === 0,
    hasAptGet: onPath("apt-get"),
  });
}

/** Returns the process exit code. */
export function ensureBrowser(dryRun: boolean): number {
  const plan = currentPlan();
  switch (plan.kind) {
    case "found":
      if (plan.note) console.log(plan.note);
      else if (dryRun) console.log(`Chromium found at ${plan.path}; nothing to do.`);
      return 0;
    case "stop":
      console.error(plan.line);
      return 1;
    case "install": {
      console.log(dryRun ? `[dry run, nothing installed] ${plan.line}` : plan.line);
      if (dryRun) return 0;
      const r = spawnSync("sh", ["-c", `${plan.command} >/dev/null`], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
      if (r.status !== 0 || !isExecutable(plan.path)) {
        // The full browser runs the journeys too, only slower.
        if (isExecutable(DEBIAN_CHROMIUM)) {
          console.log(`Installing the headless shell failed (exit ${r.status}); the browser journeys use ${DEBIAN_CHROMIUM}.`);
          return 0;
        }
        console.error(`Installing Chromium failed (exit ${r.status}); run: ${plan.command}`);
        return 1;
      }
      return 0;
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exit(ensureBrowser(process.argv.includes("--dry-run")));
}
