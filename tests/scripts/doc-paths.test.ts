// The project's own docs point at what is there: every worker/, web/, tests/, scripts/ or migrations/ path the README
// and docs/ name exists, and every relative link between them lands on a file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const DOCS = ["README.md", "CHANGELOG.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Written by a run, never committed. */
const GENERATED = new Set(["tests/bench/results.json"]);

/** Paths in a document's text; templates (`<name>`, `*`, `…`) and the changelog's history are not checked. */
function pathsIn(text: string): string[] {
  const found = text.match(/(?<![\w./-])(?:worker|web|tests|scripts|migrations)\/[\w./<>*…-]*/g) ?? [];
  return found
    .map((p) => p.replace(/[.,:;)]+$/, ""))
    .filter((p) => !/[<>*…]/.test(p) && !GENERATED.has(p));
}

/** Relative markdown links (`[text](file.md#anchor)`), the anchor dropped. */
function linksIn(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!.split("#")[0]!).filter((l) => l && !/^[a-z]+:/.test(l));
}

describe("the docs name what is there", () => {
  it.each(DOCS.filter((d) => d !== "CHANGELOG.md"))("every path %s names exists", (doc) => {
    const missing = pathsIn(readFileSync(join(ROOT, doc), "utf8")).filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it.each(DOCS)("every relative link in %s lands on a file", (doc) => {
    const missing = linksIn(readFileSync(join(ROOT, doc), "utf8")).filter((l) => !existsSync(resolve(ROOT, dirname(doc), l)));
    expect(missing).toEqual([]);
  });

  it("every capability has its page, named after its folder", () => {
    const capabilities = readdirSync(join(ROOT, "worker/features"), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(capabilities.map((d) => d.name).filter((name) => !existsSync(join(ROOT, "docs", `${name}.md`)))).toEqual([]);
  });

  it("no file of the repository cites a document outside it", () => {
    const files = [
      ...readdirSync(ROOT).filter((f) => /\.(md|ts|js|json|toml)$/.test(f)),
      ...["worker", "web", "tests", "scripts", "docs", ".ci"].flatMap((dir) =>
        readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
          .filter((f) => /\.(md|ts|tsx|js|css|html|toml|json)$|(^|\/)run$/.test(f) && !f.includes("node_modules"))
          .map((f) => `${dir}/${f}`),
      ),
    ];
    const cited = files.filter((f) => /ARCHITECTURE\.md|\.\.\/shared\/|shared\/spec\//.test(readFileSync(join(ROOT, f), "utf8")));
    expect(cited).toEqual([]);
  });
});
