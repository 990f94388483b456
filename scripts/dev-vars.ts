// Local configuration: `.dev.vars` with a random JWT_SECRET and ENCRYPTION_KEY, written once on a fresh machine (and
// completed when an older one lacks either).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export const DEV_VARS = ".dev.vars";

/** Secrets `npm start` generates: each a random 43-character string. */
const GENERATED = ["JWT_SECRET", "ENCRYPTION_KEY"] as const;

export function ensureDevVars(path = DEV_VARS): { created: boolean } {
  if (existsSync(path)) {
    let text = readFileSync(path, "utf8");
    const missing = GENERATED.filter((name) => !new RegExp(`^${name}=.{32,}$`, "m").test(text));
    if (missing.length === 0) return { created: false };
    for (const name of missing) text = `${text.trimEnd()}\n${name}=${randomBytes(32).toString("base64url")}\n`;
    writeFileSync(path, text);
    return { created: true };
  }
  writeFileSync(
    path,
    [
      "# Local secrets and overrides for `wrangler dev` (never committed).",
      `JWT_SECRET=${randomBytes(32).toString("base64url")}`,
      "# Encrypts secrets at rest (two-factor secrets):",
      `ENCRYPTION_KEY=${randomBytes(32).toString("base64url")}`,
      "ENVIRONMENT=development",
      "# Comma-separated emails that become admins when they sign up:",
      "ADMIN_EMAILS=",
      "# Set these to use a real model instead of template content:",
      "# AI_API_KEY=",
      "# AI_BASE_URL=https://openrouter.ai/api/v1",
      "# Deliver mail through a provider instead of keeping it in the outbox (resend or postmark):",
      "# MAIL_PROVIDER=resend",
      "# MAIL_API_KEY=",
      "# MAIL_FROM=Porchlight <no-reply@yourdomain.com>",
      "",
    ].join("\n"),
  );
  return { created: true };
}
