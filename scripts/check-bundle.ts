// Deploy check: `wrangler deploy --dry-run` bundles the worker as a deploy would; its gzip size must stay under the Workers limit.
// Usage: tsx scripts/check-bundle.ts   (prints one line; exit 1 when the bundle does not build or is too large)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/** The Workers free plan's limit on a worker's compressed size (the paid plan allows 10 MiB). */
export const WORKER_GZIP_LIMIT_BYTES = 3 * 1024 * 1024;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The verdict on a bundle's sizes: one line, and whether it may be deployed. */
export function bundleVerdict(rawBytes: number, gzipBytes: number, limit = WORKER_GZIP_LIMIT_BYTES): { ok: boolean; line: string } {
  const sizes = `worker bundle ${kib(rawBytes)}, gzip ${kib(gzipBytes)} of the ${kib(limit)} Workers limit (${((gzipBytes / limit) * 100).toFixed(1)}%)`;
  return gzipBytes <= limit ? { ok: true, line: sizes } : { ok: false, line: `${sizes}: too large to deploy` };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

export function checkBundle(): number {
  const outdir = mkdtempSync(join(tmpdir(), "porchlight-bundle-"));
  // The web app's files are uploaded beside the worker, not inside it: an empty folder of its own stands in for
  // dist/client, which `npm test` rebuilds for the journeys at the same time (wrangler read it half-emptied once).
  const assets = mkdtempSync(join(tmpdir(), "porchlight-assets-"));
  try {
    const r = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir, "--assets", assets], {
      encoding: "utf8",
      env: { ...process.env, CI: "true", NO_COLOR: "1", WRANGLER_SEND_METRICS: "false" },
    });
    if (r.status !== 0) {
      console.error(`wrangler deploy --dry-run failed:\n${r.stdout}\n${r.stderr}`);
      return 1;
    }
    // What is uploaded: the modules, not their source maps.
    const modules = files(outdir).filter((f) => !f.endsWith(".map") && !f.endsWith("README.md"));
    const contents = modules.map((f) => readFileSync(f));
    const raw = contents.reduce((n, b) => n + b.length, 0);
    const gzip = contents.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
    const verdict = bundleVerdict(raw, gzip);
    (verdict.ok ? console.log : console.error)(verdict.line);
    return verdict.ok ? 0 : 1;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(assets, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exit(checkBundle());
}
