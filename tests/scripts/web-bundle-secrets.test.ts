// No secret reaches the browser: the web bundle, built with known fake secret values in the environment and in
// env files, contains neither those values nor the secrets' names.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";

const SECRETS = ["AI_API_KEY", "SERPAPI_KEY", "ELEVENLABS_API_KEY", "STRIPE_WEBHOOK_SECRET", "JWT_SECRET"] as const;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const work = mkdtempSync(join(tmpdir(), "porchlight-secrets-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("web bundle", () => {
  it("carries no secret value or name, even with every secret set where a build could read it", async () => {
    const values = Object.fromEntries(SECRETS.map((name) => [name, `leak-canary-${name.toLowerCase()}-${crypto.randomUUID()}`]));
    // Env files as a developer might keep them: plain names, and the VITE_ prefix the client may read.
    const envText = SECRETS.flatMap((name) => [`${name}=${values[name]}`, `VITE_${name}_HINT=${name}`]).join("\n");
    writeFileSync(join(work, ".env"), `${envText}\n`);
    writeFileSync(join(work, ".env.production"), `${envText}\n`);
    writeFileSync(join(work, ".dev.vars"), `${envText}\n`);
    const saved = { ...process.env };
    Object.assign(process.env, values);
    const outDir = join(work, "out");
    try {
      await build({
        configFile: "vite.config.ts",
        envDir: work,
        mode: "production",
        logLevel: "error",
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      for (const name of SECRETS) if (saved[name] === undefined) delete process.env[name];
      Object.assign(process.env, saved);
    }

    const output = files(outDir);
    expect(output.some((f) => f.endsWith(".js"))).toBe(true);
    for (const file of output) {
      const text = readFileSync(file, "utf8");
      for (const name of SECRETS) {
        expect(text.includes(values[name]!), `${name}'s value in ${file}`).toBe(false);
        expect(text.includes(name), `${name} named in ${file}`).toBe(false);
      }
    }
  }, 120_000);
});
