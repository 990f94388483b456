// The decision `npm test` makes before the browser journeys: use the browser it finds, install Debian's, or stop.
import { describe, expect, it } from "vitest";
import { APT_INSTALL, DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL, browserCandidates, planBrowser, type BrowserFacts } from "../../scripts/browser-plan";

function facts(present: string[], over: Partial<BrowserFacts> = {}): BrowserFacts {
  return { chromiumPath: undefined, isExecutable: (p) => present.includes(p), isRoot: true, hasAptGet: true, ...over };
}

describe("planBrowser", () => {
  it("uses Debian's headless shell when it is there and says nothing", () => {
    expect(planBrowser(facts([DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]))).toEqual({ kind: "found", path: DEBIAN_HEADLESS_SHELL });
  });

  it("prefers CHROMIUM_PATH when it is an executable, the full browser included", () => {
    expect(planBrowser(facts(["/opt/chrome", DEBIAN_HEADLESS_SHELL], { chromiumPath: "/opt/chrome" }))).toEqual({ kind: "found", path: "/opt/chrome" });
    expect(planBrowser(facts([DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM], { chromiumPath: DEBIAN_CHROMIUM }))).toEqual({ kind: "found", path: DEBIAN_CHROMIUM });
  });

  it("falls back to the headless shell, in one line, when CHROMIUM_PATH points at nothing", () => {
    const plan = planBrowser(facts([DEBIAN_HEADLESS_SHELL], { chromiumPath: "/nope/chromium" }));
    expect(plan).toMatchObject({ kind: "found", path: DEBIAN_HEADLESS_SHELL });
    expect(plan.kind === "found" && plan.note).toMatch(/^CHROMIUM_PATH=\/nope\/chromium is not an executable file; .*\/usr\/bin\/chromium-headless-shell\.$/);
  });

  it("installs the headless shell as root with apt-get, even where the full browser is installed", () => {
    for (const present of [[], [DEBIAN_CHROMIUM]]) {
      const plan = planBrowser(facts(present, { chromiumPath: "/nope/chromium" }));
      expect(plan).toMatchObject({ kind: "install", path: DEBIAN_HEADLESS_SHELL, command: APT_INSTALL });
      expect(plan.kind === "install" && plan.line).toContain("installing Debian's chromium-headless-shell");
      expect(plan.kind === "install" && plan.line).toContain("CHROMIUM_PATH=/nope/chromium is not an executable file");
      expect(plan.kind === "install" && plan.line).not.toContain("\n");
    }
  });

  it("uses the full browser when it cannot install the shell, and says how to run faster", () => {
    const plan = planBrowser(facts([DEBIAN_CHROMIUM], { isRoot: false }));
    expect(plan).toMatchObject({ kind: "found", path: DEBIAN_CHROMIUM });
    expect(plan.kind === "found" && plan.note).toBe(
      "The browser journeys use /usr/bin/chromium (to run them faster, `sudo apt-get update && sudo apt-get install -y chromium-headless-shell`).",
    );
  });

  it("stops with the sudo command when not root and no browser is installed", () => {
    const plan = planBrowser(facts([], { isRoot: false }));
    expect(plan.kind).toBe("stop");
    expect(plan.kind === "stop" && plan.line).toContain("sudo apt-get update && sudo apt-get install -y chromium-headless-shell");
    expect(plan.kind === "stop" && plan.line).not.toContain("\n");
  });

  it("stops naming CHROMIUM_PATH where there is no apt-get", () => {
    const plan = planBrowser(facts([], { hasAptGet: false }));
    expect(plan).toMatchObject({ kind: "stop" });
    expect(plan.kind === "stop" && plan.line).toContain("set CHROMIUM_PATH=/path/to/chromium");
  });
});

describe("browserCandidates", () => {
  it("tries CHROMIUM_PATH, then the headless shell, then the full browser, each once", () => {
    expect(browserCandidates(" /opt/chrome ")).toEqual(["/opt/chrome", DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]);
    expect(browserCandidates(DEBIAN_CHROMIUM)).toEqual([DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL]);
    expect(browserCandidates(undefined)).toEqual([DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]);
  });
});
