// The shared data-layer behaviour against libSQL in Node: @libsql/client on a `file:` database in a temp folder,
// migrated by the same script `npm run db:migrate` runs when LIBSQL_URL is set.
import { createClient } from "@libsql/client";
import { is } from "drizzle-orm";
import { DrizzleD1Database } from "drizzle-orm/d1";
import { LibSQLDatabase } from "drizzle-orm/libsql";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyLibsqlMigrations, migrationFiles } from "../../scripts/db-migrate";
import { getDb, libsqlDb } from "../../worker/platform/db/client";
import { dataLayerSuite } from "../worker/platform/data-layer";

const dir = mkdtempSync(join(tmpdir(), "porchlight-libsql-"));
const client = createClient({ url: `file:${join(dir, "data.db")}` });
const applied = await applyLibsqlMigrations(client);

afterAll(() => {
  client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("libSQL migrations", () => {
  it("applies every migration once, in order, and records each in d1_migrations", async () => {
    expect(applied).toEqual(migrationFiles());
    expect(await applyLibsqlMigrations(client)).toEqual([]);
    const { rows } = await client.execute("select name from d1_migrations order by id");
    expect(rows.map((r) => r.name)).toEqual(migrationFiles());
  });
});

dataLayerSuite("libSQL", () => libsqlDb(client));

describe("getDb", () => {
  const noD1 = new Proxy({}, { get: () => { throw new Error("D1 was used"); } }) as D1Database;

  it("uses libSQL when LIBSQL_URL is set, D1 otherwise", () => {
    expect(is(getDb({ DB: noD1, LIBSQL_URL: "https://db.example.turso.io", LIBSQL_AUTH_TOKEN: "t" }), LibSQLDatabase)).toBe(true);
    expect(is(getDb({ DB: noD1, LIBSQL_URL: "  " }), DrizzleD1Database)).toBe(true);
  });
});
