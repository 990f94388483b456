// One drizzle database over whichever store is configured: libSQL/Turso when LIBSQL_URL is set, else the D1 binding.
// Both drivers run the same schema, migrations and queries; code reads only what both return alike (rows, returning()).
import { createClient, type Client } from "@libsql/client/web";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { drizzle as drizzleD1 } from "drizzle-orm/d1";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql/web";
import { desc, type SQL } from "drizzle-orm";
import type { BaseSQLiteDatabase, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * The common drizzle SQLite async database of both drivers, with their one-round-trip, all-or-nothing batch. It needs
 * no schema: the tables live beside their capability (worker/features/<name>/tables.ts) and the platform's modules,
 * queries name them, and a single row is read with `firstRow` (or `newestRow`).
 */
export type Db = BaseSQLiteDatabase<"async", unknown> & {
  batch<U extends BatchItem<"sqlite">, T extends Readonly<[U, ...U[]]>>(batch: T): Promise<BatchResponse<T>>;
};

/** What picks the store: the D1 binding, or a libSQL URL (and token) that wins when set. */
export type DbEnv = { DB: D1Database; LIBSQL_URL?: string; LIBSQL_AUTH_TOKEN?: string };

/** drizzle over a libSQL client (the worker's HTTP client, or Node's `file:` client in tests and scripts). */
export function libsqlDb(client: Pick<Client, "execute" | "batch">): Db {
  return drizzleLibsql(client as Client);
}

// A libSQL client is an HTTP client with no per-request state: one per isolate and URL.
let cached: { key: string; client: Client } | undefined;

function libsqlClient(url: string, authToken: string | undefined): Client {
  const key = `${url}\n${authToken ?? ""}`;
  if (cached?.key !== key) cached = { key, client: createClient({ url, authToken: authToken || undefined }) };
  return cached.client;
}

/** The database for this request; one instance per request is cheap. */
export function getDb(env: DbEnv): Db {
  const url = env.LIBSQL_URL?.trim();
  if (url) return libsqlDb(libsqlClient(url, env.LIBSQL_AUTH_TOKEN));
  return drizzleD1(env.DB);
}

/** The first row of `table` where `where` holds, or undefined when there is none. */
export async function firstRow<T extends SQLiteTable>(db: Db, table: T, where: SQL | undefined): Promise<T["$inferSelect"] | undefined> {
  const [row] = await db.select().from(table as SQLiteTable).where(where).limit(1);
  return row as T["$inferSelect"] | undefined;
}

/** The newest row of `table` where `where` holds (the highest `by`), or null: a business's latest scan, the one before. */
export async function newestRow<T extends SQLiteTable>(db: Db, table: T, where: SQL | undefined, by: SQLiteColumn): Promise<T["$inferSelect"] | null> {
  const [row] = await db.select().from(table as SQLiteTable).where(where).orderBy(desc(by)).limit(1);
  return (row as T["$inferSelect"] | undefined) ?? null;
}

/** D1 refuses a statement with more than 100 bound parameters. */
export const D1_MAX_PARAMS = 100;

/** How many rows fit one multi-row INSERT under D1's bound-parameter limit. */
export function rowsPerInsert(paramsPerRow: number): number {
  return Math.max(1, Math.floor(D1_MAX_PARAMS / Math.max(1, paramsPerRow)));
}

/** True when `err` (or what it wraps: drizzle wraps driver errors) is a UNIQUE/PRIMARY KEY failure on `column` ("table.column"). */
export function isUniqueViolation(err: unknown, column: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as { message?: unknown }).message ?? e).includes(`UNIQUE constraint failed: ${column}`)) return true;
  }
  return false;
}
