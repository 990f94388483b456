// Local configuration: `.dev.vars` with what a local run needs (a random JWT_SECRET and ENCRYPTION_KEY,
// ENVIRONMENT=development), written on a fresh machine and completed whenever a key is missing, whoever made the file
// (the README's first-admin step creates it with ADMIN_EMAILS alone): values already there are kept.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export const DEV_VARS = ".dev.vars";

const secret = () => randomBytes(32).toString("base64url");

/** What every local run needs, each with how its value is made. Secrets must be 32+ characters to count as set. */
const REQUIRED: { name: string; value: () => string; valid: RegExp }[] = [
  { name: "JWT_SECRET", value: secret, valid: /^.{32,}$/ },
  { name: "ENCRYPTION_KEY", value: secret, valid: /^.{32,}$/ },
  // Without it the worker runs as production: it needs APP_ORIGIN and refuses sign-ups with a server error.
  { name: "ENVIRONMENT", value: () => "development", valid: /^.+$/ },
];

/** The value of `name` in a dotenv text (the last assignment wins, as in wrangler's reading of it). */
function valueOf(text: string, name: string): string | undefined {
  const lines = [...text.matchAll(new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=(.*)$`, "gm"))];
  const raw = lines.at(-1)?.[1].trim();
  return raw?.replace(/^(["'])(.*)\1$/, "$2");
}

/** Writes `.dev.vars` when absent, else adds each missing (or unusable) key; `added` names what was written. */
export function ensureDevVars(path = DEV_VARS): { created: boolean; added: string[] } {
  if (existsSync(path)) {
    let text = readFileSync(path, "utf8");
    const missing = REQUIRED.filter(({ name, valid }) => !valid.test(valueOf(text, name) ?? ""));
    if (missing.length === 0) return { created: false, added: [] };
    for (const { name, value } of missing) text = `${text.trimEnd()}\n${name}=${value()}\n`;
    writeFileSync(path, text.replace(/^\n/, ""));
    return { created: false, added: missing.map(({ name }) => name) };
  }
  writeFileSync(
    path,
    [
      "# Local secrets and overrides for `wrangler dev` (never committed).",
      `JWT_SECRET=${secret()}`,
      "# Encrypts secrets at rest (two-factor secrets):",
      `ENCRYPTION_KEY=${secret()}`,
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
  return { created: true, added: REQUIRED.map(({ name }) => name) };
}
