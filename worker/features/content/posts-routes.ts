// /api/posts: the Facebook Post Generator (POST /facebook) and the user's kept posts (list, edit, delete).
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { deletePost, insertPost, listPosts, postJson, updatePostContent } from "./posts-queries";
import { getProfile } from "../../platform/auth/users";
import {
  LOGIN_REQUIRED_MESSAGE,
  PROFILE_REQUIRED_MESSAGE,
  PostEdit,
  PostRequest,
  type PostListResponse,
  type PostResponse,
} from "./rules/facebook-post";
import { businessFromProfile } from "./rules/content";
import { apiError, ErrorCode } from "../../platform/errors";
import { generatePost } from "./posts-generate";
import { validate } from "../../platform/validate";
import { sendUsageEvent } from "../../platform/metering/usage-log";
import { paidFeature } from "../../platform/metering/guard";

const POST_NOT_FOUND = "Post not found";

/** Spec §5: without a session the generator answers its own wording, not the generic 401 text. */
const requireSignedIn = createMiddleware<AppEnv>(async (c, next) => {
  if (!/^Bearer\s+\S/.test(c.req.header("Authorization") ?? "")) {
    return apiError(c, 401, ErrorCode.unauthorized, LOGIN_REQUIRED_MESSAGE);
  }
  await next();
});

export const postRoutes = new Hono<AppEnv>()
  .use(requireSignedIn, requireUser)

  .get("/", async (c) => {
    const rows = await listPosts(getDb(c.env), c.get("subject").id);
    const body: PostListResponse = { posts: rows.map(postJson) };
    return c.json(body);
  })

  .post("/facebook", paidFeature, validate("json", PostRequest), async (c) => {
    const userId = c.get("caller").id;
    const db = getDb(c.env);
    const profile = c.get("subject").profile ?? (await getProfile(db, userId));
    // Spec §5: a post needs the business profile (at least the company name) to be relevant.
    if (!profile?.companyName?.trim()) return apiError(c, 400, ErrorCode.profileRequired, PROFILE_REQUIRED_MESSAGE);
    const req = c.req.valid("json");
    const business = businessFromProfile(profile);
    // `npm run bench` times the meter: the same post unmetered, beside it, in local development only.
    const metered = !(c.env.ENVIRONMENT === "development" && c.req.header("X-Bench-Unmetered") === "1");
    const outcome = await generatePost(c.env, userId, business, req, (event) => sendUsageEvent(c, event), metered);
    if (!outcome.ok) return apiError(c, outcome.status, outcome.code, outcome.message);
    const row = await insertPost(db, userId, req, outcome.post, outcome.source);
    const body: PostResponse = { post: postJson(row), notice: outcome.notice };
    return c.json(body, 201);
  })

  .patch("/:id", validate("json", PostEdit), async (c) => {
    const row = await updatePostContent(getDb(c.env), c.get("caller").id, c.req.param("id"), c.req.valid("json").content);
    if (!row) return apiError(c, 404, ErrorCode.notFound, POST_NOT_FOUND);
    return c.json({ post: postJson(row) });
  })

  .delete("/:id", async (c) => {
    const deleted = await deletePost(getDb(c.env), c.get("caller").id, c.req.param("id"));
    if (!deleted) return apiError(c, 404, ErrorCode.notFound, POST_NOT_FOUND);
    return c.body(null, 204);
  });
