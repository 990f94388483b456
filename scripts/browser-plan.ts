// Which Chromium the browser journeys use, and what to do when there is none: a pure decision, tested on its own.

/**
 * Debian's `chromium-headless-shell`: the same Chromium without the desktop browser around it, the build Playwright
 * itself runs headless journeys in. The journeys took half the CPU in it that they took in the full browser
 * (30 against 60 CPU-s for the XSS and shared-report journeys), and Chromium was a third of `npm test`'s work.
 */
export const DEBIAN_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
/** Where Debian's `chromium` package puts the full browser: used when the headless shell is not there. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
export const APT_INSTALL = "apt-get update && apt-get install -y chromium-headless-shell";

export interface BrowserFacts {
  /** The CHROMIUM_PATH environment variable, if set. */
  chromiumPath: string | undefined;
  isExecutable: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export type BrowserPlan =
  | { kind: "found"; path: string; note?: string }
  | { kind: "install"; path: string; command: string; line: string }
  | { kind: "stop"; line: string };

/** CHROMIUM_PATH first, then Debian's headless shell, then Debian's full browser. */
export function browserCandidates(chromiumPath: string | undefined): string[] {
  const set = chromiumPath?.trim();
  return [...new Set([...(set ? [set] : []), DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM])];
}

export function planBrowser(facts: BrowserFacts): BrowserPlan {
  const set = facts.chromiumPath?.trim();
  const explicit = set && set !== DEBIAN_HEADLESS_SHELL && set !== DEBIAN_CHROMIUM ? set : undefined;
  if (set && facts.isExecutable(set)) return { kind: "found", path: set };
  const broken = explicit ? `CHROMIUM_PATH=${explicit} is not an executable file` : undefined;
  if (facts.isExecutable(DEBIAN_HEADLESS_SHELL)) {
    return broken ? { kind: "found", path: DEBIAN_HEADLESS_SHELL, note: `${broken}; the browser journeys use ${DEBIAN_HEADLESS_SHELL}.` } : { kind: "found", path: DEBIAN_HEADLESS_SHELL };
  }
  const hasChromium = facts.isExecutable(DEBIAN_CHROMIUM);
  if (facts.hasAptGet && facts.isRoot) {
    const missing = [broken, `No Chromium headless shell at ${DEBIAN_HEADLESS_SHELL}`].filter(Boolean).join(" and ");
    return {
      kind: "install",
      path: DEBIAN_HEADLESS_SHELL,
      command: APT_INSTALL,
      line: `${missing}: installing Debian's chromium-headless-shell for the browser journeys (${APT_INSTALL}).`,
    };
  }
  const fix = facts.hasAptGet
    ? "run `sudo apt-get update && sudo apt-get install -y chromium-headless-shell`"
    : "install Chromium and set CHROMIUM_PATH=/path/to/chromium";
  if (hasChromium) {
    // The full browser runs every journey too, at about twice the CPU.
    const faster = facts.hasAptGet ? ` (to run them faster, ${fix.replace(/^run /, "")})` : "";
    return { kind: "found", path: DEBIAN_CHROMIUM, note: `${broken ? `${broken}; t` : "T"}he browser journeys use ${DEBIAN_CHROMIUM}${faster}.` };
  }
  const missing = broken ? `${broken} and no Chromium is installed` : `No Chromium at ${DEBIAN_HEADLESS_SHELL} or ${DEBIAN_CHROMIUM}`;
  return { kind: "stop", line: `${missing}; the browser journeys need it: ${fix}, then npm test again.` };
}
