// GET /api/health: is the worker up and can it reach D1.
import { Hono } from "hono";
import type { AppEnv } from "../context";

export const APP_VERSION = "0.1.0";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  let db: boolean;
  try {
    db = (await c.env.DB.prepare("select 1 as ok").first<{ ok: number }>())?.ok === 1;
  } catch {
    db = false;
  }
  return c.json({ ok: db, db, version: APP_VERSION }, db ? 200 : 503);
});
