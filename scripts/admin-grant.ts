// `npm run admin:grant -- someone@example.com [--remote]`: make an existing user an admin.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const email = args.find((a) => !a.startsWith("--"))?.trim().toLowerCase();

if (!email || !/^[^\s@'"]+@[^\s@'"]+\.[^\s@'"]+$/.test(email)) {
  console.error("Usage: npm run admin:grant -- someone@example.com [--remote]");
  process.exit(2);
}

// The address was validated above (no quotes), so it can be embedded in the statement.
const sql = `UPDATE profiles SET is_admin = 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE email = '${email}' RETURNING id, email;`;
const r = spawnSync(
  "npx",
  ["wrangler", "d1", "execute", "DB", remote ? "--remote" : "--local", "--json", "--command", sql],
  { encoding: "utf8", env: { ...process.env, CI: "true" } },
);
if (r.status !== 0) {
  console.error(r.stderr || r.stdout);
  process.exit(r.status ?? 1);
}
let rows: unknown[] = [];
try {
  rows = (JSON.parse(r.stdout) as Array<{ results: unknown[] }>)[0]?.results ?? [];
} catch {
  console.error(r.stdout);
  process.exit(1);
}
if (rows.length === 0) {
  console.error(`No user with the email ${email}. They must sign up first, then run this again.`);
  process.exit(1);
}
console.log(`✓ ${email} is now an admin${remote ? " (production)" : " (local)"}. They see the Admin section after reloading.`);
