// /api/profile: the subject's business profile (the caller's own, or the viewed user's, read-only).
import { Hono } from "hono";
import { adminMfaMissing, requireUser } from "../../platform/auth/middleware";
import { adminEmails } from "../../platform/auth/admin-emails";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getProfile, normalizeEmail } from "../../platform/auth/users";
import { updateCompanyProfile, setLogoUrl } from "./queries";
import {
  profileJson,
  LOGO_MAX_BYTES,
  LOGO_TOO_LARGE_MESSAGE,
  ProfileUpdate,
  fileKeyFromUrl,
  fileUrl,
  type ProfileResponse,
} from "./rules/profile";
import type { Env } from "../../platform/env";
import { validate } from "../../platform/validate";
import { storeLogoUpload } from "../files";
import { apiError, ErrorCode } from "../../platform/errors";
import { log } from "../../platform/log";

export const profileRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    // The guard already read the subject's profile with the session check; read again only if absent.
    const subject = c.get("subject");
    const profile = subject.profile ?? (await getProfile(getDb(c.env), subject.id));
    if (!profile) return apiError(c, 404, ErrorCode.notFound, "Profile not found");
    const caller = c.get("caller");
    // The caller's own address (never the viewed user's): unconfirmed, and whether admin rights wait on it: not when
    // the account is admin already (`npm run admin:grant`), as the database says (issue 39).
    const emailUnconfirmed = !c.get("viewingAs") && caller.emailConfirmedAt === null;
    const body: ProfileResponse = {
      profile: profileJson(profile),
      viewingAs: c.get("viewingAs"),
      adminMfaMissing: adminMfaMissing(c.env, caller),
      emailUnconfirmed,
      adminAwaitsConfirmation: emailUnconfirmed && !caller.isAdmin && adminEmails(c.env).has(normalizeEmail(caller.email)),
    };
    return c.json(body);
  })

  // The Company Profile form. Writes while viewing as another user were refused by requireUser (403).
  .put("/", validate("json", ProfileUpdate), async (c) => {
    const updated = await updateCompanyProfile(getDb(c.env), c.get("caller").id, c.req.valid("json"));
    if (!updated) return apiError(c, 404, ErrorCode.notFound, "Profile not found");
    const body: ProfileResponse = { profile: profileJson(updated), viewingAs: false };
    return c.json(body);
  })

  // multipart/form-data with a `file` field; stored in R2, the type decided by the file's own bytes.
  .post("/logo", async (c) => {
    const userId = c.get("caller").id;
    const upload = await storeLogoUpload(c, userId, LOGO_MAX_BYTES, LOGO_TOO_LARGE_MESSAGE);
    if (!upload.ok) return upload.response;
    const key = upload.key;
    const saved = await setLogoUrl(getDb(c.env), userId, fileUrl(key));
    if (!saved) {
      await c.env.FILES.delete(key);
      return apiError(c, 404, ErrorCode.notFound, "Profile not found");
    }
    await deleteStoredFile(c.env, saved.previousUrl);
    const body: ProfileResponse = { profile: profileJson(saved.row), viewingAs: false };
    return c.json(body, 201);
  })

  .delete("/logo", async (c) => {
    const saved = await setLogoUrl(getDb(c.env), c.get("caller").id, null);
    if (!saved) return apiError(c, 404, ErrorCode.notFound, "Profile not found");
    await deleteStoredFile(c.env, saved.previousUrl);
    const body: ProfileResponse = { profile: profileJson(saved.row), viewingAs: false };
    return c.json(body);
  });

/** Deletes the R2 object behind one of our file URLs; other addresses (old local previews) are left alone. */
async function deleteStoredFile(env: Env, url: string | null): Promise<void> {
  const key = fileKeyFromUrl(url);
  if (!key) return;
  try {
    await env.FILES.delete(key);
  } catch (error) {
    // The new logo is saved; an orphaned old object costs storage, not correctness.
    log.warn("could not delete the replaced logo", { key }, error);
  }
}
