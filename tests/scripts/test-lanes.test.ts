// `npm test` runs every suite once, in two lanes (scripts/test.ts), and says what failed and what that skipped.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALL_STEPS, LANES, summary, type StepResult } from "../../scripts/test";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };

describe("npm test's lanes", () => {
  it("is what package.json's test script runs", () => {
    expect(pkg.scripts.test).toBe("tsx scripts/test.ts");
  });

  it("runs the checks and every suite exactly once, each an existing script", () => {
    const steps = ALL_STEPS;
    const scripts = steps.map((s) => (s.command === "npm" ? s.args.at(-1)! : s.args.join(" ")));
    expect(scripts.sort()).toEqual(["test:e2e", "test:node", "test:worker", "tsx scripts/checks.ts"]);
    for (const s of steps.filter((x) => x.command === "npm")) expect(pkg.scripts[s.args.at(-1)!]).toBeTruthy();
  });

  it("streams at most one lane, so output never interleaves", () => {
    expect(LANES.filter((lane) => lane.live).length).toBeLessThanOrEqual(1);
  });
});

describe("the closing summary", () => {
  const passed = (name: string, seconds = 1): StepResult => ({ name, ok: true, seconds });

  it("passes only when every step ran and passed", () => {
    const { ok, lines } = summary(ALL_STEPS, ALL_STEPS.map((s) => passed(s.name)), 300);
    expect(ok).toBe(true);
    expect(lines.at(-1)).toBe("npm test: passed in 300.0 s");
    expect(summary(ALL_STEPS, ALL_STEPS.slice(1).map((s) => passed(s.name)), 300).ok, "a step that never ran").toBe(false);
  });

  it("fails on a failed step and names the steps it skipped", () => {
    const [first, ...rest] = ALL_STEPS;
    const results = [{ name: first!.name, ok: false, seconds: 2 }, ...rest.slice(1).map((s) => passed(s.name))];
    const { ok, lines } = summary(ALL_STEPS, results, 10);
    expect(ok).toBe(false);
    expect(lines[0]).toBe(`FAILED ${first!.name} 2.0 s`);
    expect(lines).toContain(`skipped ${rest[0]!.name} (an earlier step of its lane failed)`);
    expect(lines.at(-1)).toBe("npm test: FAILED in 10.0 s");
  });
});
