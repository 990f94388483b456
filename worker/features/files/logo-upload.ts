// The logo rules every upload shares (profile, widget, brand): multipart `file`, a size cap checked before and after
// reading, the type decided by the file's own bytes (PNG, JPEG, WebP or GIF; never SVG), stored in R2 under logos/.
import type { Context } from "hono";
import { FILE_CACHE_CONTROL, LOGO_TYPE_MESSAGE, sniffLogoType, type LogoType } from "../profile/rules/profile";
import { apiError, ErrorCode } from "../../platform/errors";

/** The stored logo, or the error answer to return as it is. */
export type LogoUpload = { ok: true; key: string; type: LogoType } | { ok: false; response: Response };

/** Reads, checks and stores the request's logo under `logos/<owner>/<random>.<ext>` (a new key every time). */
export async function storeLogoUpload(c: Context, owner: string, maxBytes: number, tooLargeMessage: string): Promise<LogoUpload> {
  const refuse = (response: Response): LogoUpload => ({ ok: false, response });
  const declared = Number(c.req.header("Content-Length") ?? "0");
  // Refuse an oversized body before reading it (multipart framing adds a few hundred bytes).
  if (declared > maxBytes + 64 * 1024) return refuse(apiError(c, 413, ErrorCode.payloadTooLarge, tooLargeMessage));
  const form = await c.req.formData().catch(() => null);
  const file = form?.get("file") as File | string | null | undefined;
  if (!file || typeof file === "string") return refuse(apiError(c, 400, ErrorCode.validation, "file: choose an image to upload", { file: ["Required"] }));
  if (file.size > maxBytes) return refuse(apiError(c, 413, ErrorCode.payloadTooLarge, tooLargeMessage));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffLogoType(bytes);
  if (!type) return refuse(apiError(c, 415, ErrorCode.unsupportedMedia, LOGO_TYPE_MESSAGE));
  const key = `logos/${owner}/${crypto.randomUUID()}.${type.ext}`;
  const files = (c.env as { FILES: R2Bucket }).FILES;
  await files.put(key, bytes, { httpMetadata: { contentType: type.mime, cacheControl: FILE_CACHE_CONTROL } });
  return { ok: true, key, type };
}
