// The app shell's initial JavaScript: what dist/client/index.html loads before any lazy route (its entry script and
// the chunks it preloads, i.e. the entry's static imports), summed gzip. Issue 40: at most 100 KB.
// Usage: npx vite build && tsx scripts/shell-size.ts [--check]   (exit 1 with --check when over the limit)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/** The shell's budget, in KB (1,000 bytes, as Vite prints its gzip sizes). */
export const SHELL_GZIP_LIMIT_KB = 100;

/** The JavaScript files an HTML page loads at once: module scripts and module preloads, in order, no duplicates. */
export function initialScripts(html: string): string[] {
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  const paths = tags.flatMap((tag) => {
    const src = /\bsrc="([^"]+\.js)"/.exec(tag)?.[1] ?? (/\brel="modulepreload"/.test(tag) ? /\bhref="([^"]+\.js)"/.exec(tag)?.[1] : undefined);
    return src ? [src] : [];
  });
  return [...new Set(paths)];
}

export function shellSize(dist = "dist/client"): { files: { path: string; gzip: number }[]; totalKb: number } {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const files = initialScripts(html).map((path) => ({ path, gzip: gzipSync(readFileSync(join(dist, path))).length }));
  return { files, totalKb: files.reduce((n, f) => n + f.gzip, 0) / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { files, totalKb } = shellSize();
  for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) console.log(`${(f.gzip / 1000).toFixed(1).padStart(7)} KB  ${f.path}`);
  const ok = totalKb <= SHELL_GZIP_LIMIT_KB;
  (ok ? console.log : console.error)(`app shell initial JS: ${totalKb.toFixed(1)} KB gzip (limit ${SHELL_GZIP_LIMIT_KB} KB)`);
  if (process.argv.includes("--check") && !ok) process.exit(1);
}
