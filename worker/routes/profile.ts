// /api/profile: the subject's business profile (the caller's own, or the viewed user's, read-only).
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { getDb } from "../db/client";
import { getProfile } from "../db/users";
import { profileJson, type ProfileResponse } from "../domain/profile";
import { apiError, ErrorCode } from "../errors";

export const profileRoutes = new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
  // The guard already read the subject's profile with the session check; read again only if absent.
  const subject = c.get("subject");
  const profile = subject.profile ?? (await getProfile(getDb(c.env.DB), subject.id));
  if (!profile) return apiError(c, 404, ErrorCode.notFound, "Profile not found");
  const body: ProfileResponse = { profile: profileJson(profile), viewingAs: c.get("viewingAs") };
  return c.json(body);
});
