// `npm run db:migrate [-- --remote]`: applies migrations/*.sql to whichever database is configured. With LIBSQL_URL
// (environment, else .dev.vars for the local run) it applies them to libSQL/Turso in name order, each in its own
// transaction together with its row in `d1_migrations` (the table wrangler keeps on D1), so a second run applies
// only what is new; without it, `wrangler d1 migrations apply DB --local` (or `--remote`).
import { createClient, type Client } from "@libsql/client";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DEV_VARS } from "./dev-vars";

export const MIGRATIONS_DIR = "migrations";

/** The migration files in the order they apply. */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
}

/** Applies every migration in `dir` not yet recorded in d1_migrations; returns the names it applied. */
export async function applyLibsqlMigrations(client: Client, dir = MIGRATIONS_DIR): Promise<string[]> {
  await client.execute(
    `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
       applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
  );
  const done = new Set((await client.execute("SELECT name FROM d1_migrations")).rows.map((r) => String(r.name)));
  const applied: string[] = [];
  for (const name of migrationFiles(dir)) {
    if (done.has(name)) continue;
    const body = readFileSync(join(dir, name), "utf8");
    try {
      await client.executeMultiple(`BEGIN;\n${body}\n;\nINSERT INTO d1_migrations (name) VALUES ('${name.replaceAll("'", "''")}');\nCOMMIT;`);
    } catch (err) {
      await client.execute("ROLLBACK").catch(() => undefined);
      throw new Error(`Migration ${name} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}

/** KEY=VALUE lines of .dev.vars (what `wrangler dev` reads), without comments. */
function devVars(path = DEV_VARS): Record<string, string> {
  if (!existsSync(path)) return {};
  const vars: Record<string, string> = {};
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) vars[m[1]!] = m[2]!.replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

async function main() {
  const remote = process.argv.includes("--remote");
  const local = remote ? {} : devVars();
  const url = (process.env.LIBSQL_URL ?? local.LIBSQL_URL ?? "").trim();
  if (!url) {
    const r = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", remote ? "--remote" : "--local"], {
      stdio: "inherit",
      env: { ...process.env, CI: "true" },
    });
    process.exit(r.status ?? 1);
  }
  const client = createClient({ url, authToken: process.env.LIBSQL_AUTH_TOKEN ?? local.LIBSQL_AUTH_TOKEN ?? undefined });
  try {
    const applied = await applyLibsqlMigrations(client);
    const where = url.replace(/\/\/[^@/]*@/, "//");
    console.log(applied.length ? `Applied ${applied.length} migration(s) to libSQL ${where}: ${applied.join(", ")}` : `libSQL ${where} is up to date.`);
  } finally {
    client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err: unknown) => {
    console.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
