// /api/files/*: stored files (logos) from R2, public by unguessable key, cached for a year, never sniffed.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { apiError, ErrorCode } from "../../platform/errors";
import { storedFile } from "./serve";

export const fileRoutes = new Hono<AppEnv>().get("/*", async (c) => {
  const file = await storedFile(c.env, new URL(c.req.url).pathname, c.req.header("If-None-Match"));
  if (file.kind === "missing") return apiError(c, 404, ErrorCode.notFound, "File not found");
  if (file.kind === "unchanged") return c.body(null, 304, file.headers);
  return c.body(file.body, 200, file.headers);
});
