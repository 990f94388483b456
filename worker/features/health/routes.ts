// GET /api/health: is the worker up and can it reach its database (D1 or libSQL).
import { Hono } from "hono";
import { sql } from "drizzle-orm";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";

export const APP_VERSION = "0.7.0";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  let db: boolean;
  try {
    db = (await getDb(c.env).get<{ ok: number }>(sql`select 1 as ok`))?.ok === 1;
  } catch {
    db = false;
  }
  return c.json({ ok: db, db, version: APP_VERSION }, db ? 200 : 503);
});
