// Every stylesheet closes every block it opens. CSS forgives a block left open at the end of a file, but the build
// joins a chunk's sheets into one file, so an unclosed `@keyframes` at the end of one sheet swallowed the next
// sheet's rules whole (the admin report's page frame went missing when reports.css was split, issue 40).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function sheets(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sheets(path) : name.endsWith(".css") ? [path] : [];
  });
}

/** The depth of `{` blocks left open at the end, comments and strings aside; -1 when a `}` closes nothing. */
function openBlocks(css: string): number {
  const code = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
  let depth = 0;
  for (const ch of code) {
    if (ch === "{") depth += 1;
    if (ch === "}" && --depth < 0) return -1;
  }
  return depth;
}

describe("stylesheets", () => {
  it("tells an unclosed or over-closed block from a whole one", () => {
    expect(openBlocks("@keyframes a { 50% { opacity: 0 } }")).toBe(0);
    expect(openBlocks("@keyframes a {\n  50% { opacity: 0; }\n")).toBe(1);
    expect(openBlocks('.a::before { content: "{"; } /* } */')).toBe(0);
    expect(openBlocks(".a { } }")).toBe(-1);
  });

  it.each(sheets("web").map((path) => [path]))("%s closes every block it opens", (path) => {
    expect(openBlocks(readFileSync(path, "utf8"))).toBe(0);
  });
});
