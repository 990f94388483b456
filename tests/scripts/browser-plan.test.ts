// The decision `npm test` makes before the browser journeys: use the browser it finds, install Debian's, or stop.
import { describe, expect, it } from "vitest";
import { APT_INSTALL, DEBIAN_CHROMIUM, planBrowser, type BrowserFacts } from "../../scripts/browser-plan";

function facts(present: string[], over: Partial<BrowserFacts> = {}): BrowserFacts {
  return { chromiumPath: undefined, isExecutable: (p) => present.includes(p), isRoot: true, hasAptGet: true, ...over };
}

describe("planBrowser", () => {
  it("uses Debian's chromium when it is there and says nothing", () => {
    expect(planBrowser(facts([DEBIAN_CHROMIUM]))).toEqual({ kind: "found", path: DEBIAN_CHROMIUM });
  });

  it("prefers CHROMIUM_PATH when it is an executable", () => {
    expect(planBrowser(facts(["/opt/chrome", DEBIAN_CHROMIUM], { chromiumPath: "/opt/chrome" }))).toEqual({
      kind: "found",
      path: "/opt/chrome",
    });
  });

  it("falls back to Debian's chromium, in one line, when CHROMIUM_PATH points at nothing", () => {
    const plan = planBrowser(facts([DEBIAN_CHROMIUM], { chromiumPath: "/nope/chromium" }));
    expect(plan).toMatchObject({ kind: "found", path: DEBIAN_CHROMIUM });
    expect(plan.kind === "found" && plan.note).toMatch(/^CHROMIUM_PATH=\/nope\/chromium is not an executable file; .*\/usr\/bin\/chromium\.$/);
  });

  it("installs Debian's chromium as root with apt-get when no browser is found", () => {
    const plan = planBrowser(facts([], { chromiumPath: "/nope/chromium" }));
    expect(plan).toMatchObject({ kind: "install", path: DEBIAN_CHROMIUM, command: APT_INSTALL });
    expect(plan.kind === "install" && plan.line).toContain("installing Debian's chromium");
    expect(plan.kind === "install" && plan.line).not.toContain("\n");
  });

  it("stops with the sudo command when not root", () => {
    const plan = planBrowser(facts([], { isRoot: false }));
    expect(plan.kind).toBe("stop");
    expect(plan.kind === "stop" && plan.line).toContain("sudo apt-get update && sudo apt-get install -y chromium");
    expect(plan.kind === "stop" && plan.line).not.toContain("\n");
  });

  it("stops naming CHROMIUM_PATH where there is no apt-get", () => {
    const plan = planBrowser(facts([], { hasAptGet: false }));
    expect(plan).toMatchObject({ kind: "stop" });
    expect(plan.kind === "stop" && plan.line).toContain("set CHROMIUM_PATH=/path/to/chromium");
  });
});
