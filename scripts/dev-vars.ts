// Local configuration: `.dev.vars` with a random JWT_SECRET, written once on a fresh machine.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export const DEV_VARS = ".dev.vars";

export function ensureDevVars(path = DEV_VARS): { created: boolean } {
  if (existsSync(path)) {
    const text = readFileSync(path, "utf8");
    if (/^JWT_SECRET=.{32,}$/m.test(text)) return { created: false };
    writeFileSync(path, `${text.trimEnd()}\nJWT_SECRET=${randomBytes(32).toString("base64url")}\n`);
    return { created: true };
  }
  writeFileSync(
    path,
    [
      "# Local secrets and overrides for `wrangler dev` (never committed).",
      `JWT_SECRET=${randomBytes(32).toString("base64url")}`,
      "ENVIRONMENT=development",
      "# Comma-separated emails that become admins when they sign up:",
      "ADMIN_EMAILS=",
      "# Set these to use a real model instead of template content:",
      "# AI_API_KEY=",
      "# AI_BASE_URL=https://openrouter.ai/api/v1",
      "",
    ].join("\n"),
  );
  return { created: true };
}
