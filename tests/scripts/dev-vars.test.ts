// `npm start`'s local configuration: whoever made `.dev.vars` (the README's first-admin step writes it with
// ADMIN_EMAILS alone), a start completes it with what a local run needs and keeps every value already there.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureDevVars } from "../../scripts/dev-vars";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "dev-vars-"));
  path = join(dir, ".dev.vars");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = () => parseEnv(readFileSync(path, "utf8")) as Record<string, string>;

describe(".dev.vars for a local run", () => {
  it("a fresh machine gets the secrets and ENVIRONMENT=development", () => {
    expect(ensureDevVars(path).created).toBe(true);
    const vars = read();
    expect(vars.ENVIRONMENT).toBe("development");
    expect(vars.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(vars.ENCRYPTION_KEY.length).toBeGreaterThanOrEqual(32);
  });

  it("the README's first-admin step before the first start: the file gets every missing key, ADMIN_EMAILS kept", () => {
    writeFileSync(path, "ADMIN_EMAILS=you@agency.com\n");
    const { created, added } = ensureDevVars(path);
    expect(created).toBe(false);
    expect(added.sort()).toEqual(["ENCRYPTION_KEY", "ENVIRONMENT", "JWT_SECRET"]);
    const vars = read();
    expect(vars.ADMIN_EMAILS).toBe("you@agency.com");
    expect(vars.ENVIRONMENT).toBe("development");
    expect(vars.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(vars.ENCRYPTION_KEY.length).toBeGreaterThanOrEqual(32);
  });

  it("keeps values already set and changes nothing when nothing is missing", () => {
    const text = `JWT_SECRET=${"j".repeat(40)}\nexport ENCRYPTION_KEY="${"k".repeat(40)}"\nENVIRONMENT=staging\nAPP_ORIGIN=http://localhost:8787\n`;
    writeFileSync(path, text);
    expect(ensureDevVars(path)).toEqual({ created: false, added: [] });
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("adds only what is missing, once: a second start finds nothing to add", () => {
    const jwt = "j".repeat(40);
    writeFileSync(path, `# mine\nJWT_SECRET=${jwt}\n`);
    expect(ensureDevVars(path).added.sort()).toEqual(["ENCRYPTION_KEY", "ENVIRONMENT"]);
    const after = readFileSync(path, "utf8");
    expect(after.startsWith(`# mine\nJWT_SECRET=${jwt}\n`)).toBe(true);
    expect(ensureDevVars(path).added).toEqual([]);
    expect(readFileSync(path, "utf8")).toBe(after);
  });
});
