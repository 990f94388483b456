// One-off (issue 40 item 6): moves the web app's files by a mapping (old new, relative to web/), rewriting every
// relative import specifier that resolves to a moved file, in every importer (web, tests, worker, scripts), and the
// paths other files name as text (web/<old> in comments and configs, /<old> in the HTML entry points).
// Usage: npx tsx scripts/move-web.ts <mapping-file>
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync, readdirSync } from "node:fs";
import path from "node:path";

const mapping = new Map<string, string>(
  readFileSync(process.argv[2], "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(/\s+/) as [string, string])
    .map(([a, b]) => [path.join("web", a), path.join("web", b)]),
);
const moved = (p: string) => mapping.get(p) ?? p;

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) return [];
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const CODE = /\.(ts|tsx|mts|js|mjs|css)$/;
const files = [...["web", "tests", "worker", "scripts", "queues"].flatMap(walk), ...readdirSync(".").filter((f) => CODE.test(f) || f.endsWith(".json"))]
  .filter((f) => CODE.test(f) || f.endsWith(".json") || f.endsWith(".html"));

const EXTS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];
function resolveOld(fromDir: string, spec: string) {
  const [bare, query] = spec.split(/(?=\?)/);
  const base = path.normalize(path.join(fromDir, bare));
  for (const ext of EXTS) {
    const p = base + ext;
    if (existsSync(p) && statSync(p).isFile()) return { file: p, ext, query: query ?? "" };
  }
  return null;
}
function specifier(fromFileNew: string, targetNew: string, ext: string, query: string) {
  let rel = path.relative(path.dirname(fromFileNew), targetNew);
  if (ext && !ext.startsWith("/")) rel = rel.slice(0, -ext.length);
  if (ext.startsWith("/")) rel = path.dirname(rel);
  if (!rel.startsWith(".")) rel = "./" + rel;
  return rel + query;
}

const SPEC = /((?:\bfrom|\bimport|\bimport\(|\bmock\(|\bimportActual\(|@import|@import\s+url\()\s*)(["'])(\.{1,2}\/[^"']*)\2/g;
const outputs = new Map<string, string>();
let rewrites = 0;
for (const file of files) {
  const src = readFileSync(file, "utf8");
  const newFile = moved(file);
  let out = src;
  if (CODE.test(file)) {
    out = out.replace(SPEC, (all: string, lead: string, q: string, spec: string) => {
      const r = resolveOld(path.dirname(file), spec);
      if (!r) return all;
      if (!mapping.has(r.file) && !mapping.has(file)) return all;
      const next = specifier(newFile, moved(r.file), r.ext, r.query);
      if (next === spec) return all;
      rewrites++;
      return `${lead}${q}${next}${q}`;
    });
  }
  // Paths named as text: longest first so a path is not replaced by its prefix.
  for (const [a, b] of [...mapping].sort((x, y) => y[0].length - x[0].length)) {
    const noExt = (p: string) => p.replace(/\.(tsx?|css)$/, "");
    out = out.split(a).join(b);
    if (noExt(a) !== a) out = out.replace(new RegExp(noExt(a).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") + "(?![\\w./-])", "g"), noExt(b));
    if (file.endsWith(".html")) out = out.split(`"/${a.slice(4)}"`).join(`"/${b.slice(4)}"`);
  }
  if (out !== src || newFile !== file) outputs.set(newFile, out);
}
for (const [a, b] of mapping) {
  execFileSync("mkdir", ["-p", path.dirname(b)]);
  execFileSync("git", ["mv", a, b]);
}
for (const [file, text] of outputs) writeFileSync(file, text);
console.log(`${mapping.size} files moved, ${rewrites} import specifiers rewritten, ${outputs.size} files written`);
