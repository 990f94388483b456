// Which Chromium the browser journeys use, and what to do when there is none: a pure decision, tested on its own.

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
export const APT_INSTALL = "apt-get update && apt-get install -y chromium";

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

/** CHROMIUM_PATH first, then Debian's path: the first one that is an executable file. */
export function browserCandidates(chromiumPath: string | undefined): string[] {
  const set = chromiumPath?.trim();
  return set && set !== DEBIAN_CHROMIUM ? [set, DEBIAN_CHROMIUM] : [DEBIAN_CHROMIUM];
}

export function planBrowser(facts: BrowserFacts): BrowserPlan {
  const candidates = browserCandidates(facts.chromiumPath);
  const found = candidates.find((p) => facts.isExecutable(p));
  const explicit = candidates.length > 1 ? candidates[0] : undefined;
  if (found) {
    return found === explicit || !explicit
      ? { kind: "found", path: found }
      : { kind: "found", path: found, note: `CHROMIUM_PATH=${explicit} is not an executable file; the browser journeys use ${found}.` };
  }
  const missing = explicit ? `CHROMIUM_PATH=${explicit} is not an executable file and ${DEBIAN_CHROMIUM} is missing` : `No Chromium at ${DEBIAN_CHROMIUM}`;
  if (facts.hasAptGet && facts.isRoot) {
    return {
      kind: "install",
      path: DEBIAN_CHROMIUM,
      command: APT_INSTALL,
      line: `${missing}: installing Debian's chromium for the browser journeys (${APT_INSTALL}).`,
    };
  }
  const fix = facts.hasAptGet
    ? "run `sudo apt-get update && sudo apt-get install -y chromium`"
    : "install Chromium and set CHROMIUM_PATH=/path/to/chromium";
  return { kind: "stop", line: `${missing}; the browser journeys need it: ${fix}, then npm test again.` };
}
