// /api/files/*: stored files (logos) from R2, public by unguessable key, cached for a year, never sniffed.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { FILE_CACHE_CONTROL } from "../profile/rules/profile";
import { apiError, ErrorCode } from "../../platform/errors";

/** Keys carry a random part and a replaced logo gets a new key, so an object never changes under its URL. */
const KEY = /^logos\/[A-Za-z0-9-]+\/[A-Za-z0-9-]+\.(png|jpg|webp|gif)$/;
const SAFE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

export const fileRoutes = new Hono<AppEnv>().get("/*", async (c) => {
  let key: string;
  try {
    key = decodeURIComponent(new URL(c.req.url).pathname.replace(/^\/api\/files\//, ""));
  } catch {
    // A broken percent-encoding (e.g. %E0%A4%A) names no file.
    return apiError(c, 404, ErrorCode.notFound, "File not found");
  }
  if (!KEY.test(key)) return apiError(c, 404, ErrorCode.notFound, "File not found");
  const etag = c.req.header("If-None-Match");
  const object = await c.env.FILES.get(key, etag ? { onlyIf: { etagDoesNotMatch: etag.replace(/^W\//, "").replace(/"/g, "") } } : undefined);
  if (!object) return apiError(c, 404, ErrorCode.notFound, "File not found");
  const headers: Record<string, string> = {
    ETag: object.httpEtag,
    "Cache-Control": FILE_CACHE_CONTROL,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (!("body" in object)) return c.body(null, 304, headers);
  const type = object.httpMetadata?.contentType ?? "";
  // Only the types the upload sniffed are ever served as themselves.
  headers["Content-Type"] = SAFE_TYPES.has(type) ? type : "application/octet-stream";
  return c.body(object.body, 200, headers);
});
