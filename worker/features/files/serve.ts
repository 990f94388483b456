// Serving a stored file (a logo) from R2: public by unguessable key, cached for a year, revalidated by ETag, and only
// the image types the upload sniffed served as themselves.
import type { Env } from "../../platform/env";
import { FILE_CACHE_CONTROL } from "../profile/rules/profile";

/** Keys carry a random part and a replaced logo gets a new key, so an object never changes under its URL. */
const KEY = /^logos\/[A-Za-z0-9-]+\/[A-Za-z0-9-]+\.(png|jpg|webp|gif)$/;
const SAFE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

export type StoredFile =
  | { kind: "missing" }
  | { kind: "unchanged"; headers: Record<string, string> }
  | { kind: "file"; body: ReadableStream; headers: Record<string, string> };

/** The key a request path names (`/api/files/<key>`), or null when it names no file. */
function keyOf(pathname: string): string | null {
  let key: string;
  try {
    key = decodeURIComponent(pathname.replace(/^\/api\/files\//, ""));
  } catch {
    // A broken percent-encoding (e.g. %E0%A4%A) names no file.
    return null;
  }
  return KEY.test(key) ? key : null;
}

/** The file a path names, or "unchanged" when the client's ETag still matches it. */
export async function storedFile(env: Env, pathname: string, ifNoneMatch: string | undefined): Promise<StoredFile> {
  const key = keyOf(pathname);
  if (!key) return { kind: "missing" };
  const object = await env.FILES.get(key, ifNoneMatch ? { onlyIf: { etagDoesNotMatch: ifNoneMatch.replace(/^W\//, "").replace(/"/g, "") } } : undefined);
  if (!object) return { kind: "missing" };
  const headers: Record<string, string> = {
    ETag: object.httpEtag,
    "Cache-Control": FILE_CACHE_CONTROL,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (!("body" in object)) return { kind: "unchanged", headers };
  const type = object.httpMetadata?.contentType ?? "";
  headers["Content-Type"] = SAFE_TYPES.has(type) ? type : "application/octet-stream";
  return { kind: "file", body: object.body, headers };
}
