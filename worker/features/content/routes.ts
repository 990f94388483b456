// /api/content: the content suite's generators on the shared engine (POST /:tool), their one history (GET ?tool=),
// one kept result (GET /:id, the GMB Post Scheduler opens a generated post through it), edits, deletes, and a social
// plan's calendar subscription URL (POST /:id/calendar; the feed itself is public at /api/calendar/:token.ics).
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import { newOpaqueToken, sha256Hex } from "../../platform/auth/tokens";
import { CONTENT_RULES, generateContent } from "./generate";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { contentJson, deleteContent, getContent, insertContent, listContent, setFeedToken, updateContentResult } from "./queries";
import { getProfile } from "../../platform/auth/users";
import { businessFromProfile, CONTENT_TOOLS, ContentToolParam, type ContentItem } from "./rules/content";
import { PROFILE_REQUIRED_MESSAGE } from "./rules/facebook-post";
import { issuesByField } from "../../domain/form-rules";
import { apiError, ErrorCode } from "../../platform/errors";
import { sendUsageEvent } from "../../platform/metering/usage-log";
import { appOrigin } from "../../platform/origin";
import { MALFORMED_JSON_MESSAGE, readJsonBody, validate, validId } from "../../platform/validate";
import { paidFeature } from "../../platform/metering/guard";

const NOT_FOUND = "Content not found";

export type ContentResponse = { item: ContentItem };
export type ContentListResponse = { items: ContentItem[] };

const ListQuery = z.object({ tool: z.enum(CONTENT_TOOLS) });
const ContentEdit = z.object({ result: z.unknown() });

export const contentRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", validate("query", ListQuery), async (c) => {
    const rows = await listContent(getDb(c.env), c.get("subject").id, c.req.valid("query").tool);
    const body: ContentListResponse = { items: rows.map(contentJson) };
    return c.json(body);
  })

  .get("/:id", validId(NOT_FOUND), async (c) => {
    const row = await getContent(getDb(c.env), c.get("subject").id, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    const body: ContentResponse = { item: contentJson(row) };
    return c.json(body);
  })

  .post("/:tool", paidFeature, validate("param", ContentToolParam), async (c) => {
    const tool = c.req.valid("param").tool;
    const rules = CONTENT_RULES[tool];
    // As POST /api/posts/facebook: a body that is not JSON, empty or `null` is a 400, never a generation with defaults.
    const sent = await readJsonBody(c);
    if ("malformed" in sent) return apiError(c, 400, ErrorCode.validation, MALFORMED_JSON_MESSAGE);
    const parsed = rules.request.safeParse(sent.value);
    if (!parsed.success) {
      const fields = issuesByField(parsed.error);
      const first = Object.entries(fields)[0];
      return apiError(c, 400, ErrorCode.validation, first ? `${first[0] === "_" ? "Request" : first[0]}: ${first[1][0]}` : "Invalid request", fields);
    }
    const userId = c.get("caller").id;
    const db = getDb(c.env);
    const profile = c.get("subject").profile ?? (await getProfile(db, userId));
    if (!profile?.companyName?.trim()) return apiError(c, 400, ErrorCode.profileRequired, PROFILE_REQUIRED_MESSAGE);
    const business = businessFromProfile(profile);
    // `npm run bench` times the meter: the same call unmetered, beside it, in local development only.
    const metered = !(c.env.ENVIRONMENT === "development" && c.req.header("X-Bench-Unmetered") === "1");
    const outcome = await generateContent(c.env, userId, tool, business, parsed.data, (event) => sendUsageEvent(c, event), { metered });
    const row = await insertContent(db, userId, { tool, input: parsed.data, ...outcome });
    const body: ContentResponse = { item: contentJson(row) };
    return c.json(body, 201);
  })

  .patch("/:id", validId(NOT_FOUND), validate("json", ContentEdit), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("caller").id;
    const row = await getContent(db, userId, c.req.valid("param").id);
    if (!row) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    const rules = CONTENT_RULES[row.tool as keyof typeof CONTENT_RULES];
    if (!rules) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    const checked = rules.result.safeParse(c.req.valid("json").result);
    if (!checked.success) {
      const fields = issuesByField(checked.error);
      const first = Object.entries(fields)[0];
      return apiError(c, 400, ErrorCode.validation, first ? `result.${first[0]}: ${first[1][0]}` : "The edit is not valid", fields);
    }
    const title = rules.title(checked.data, JSON.parse(row.input));
    const updated = await updateContentResult(db, userId, row.id, checked.data, title);
    if (!updated) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    const body: ContentResponse = { item: contentJson(updated) };
    return c.json(body);
  })

  .delete("/:id", validId(NOT_FOUND), async (c) => {
    const deleted = await deleteContent(getDb(c.env), c.get("caller").id, c.req.valid("param").id);
    if (!deleted) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    return c.body(null, 204);
  })

  /** A new calendar subscription URL for a social plan; the previous one stops working. */
  .post("/:id/calendar", validId(NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("caller").id;
    const row = await getContent(db, userId, c.req.valid("param").id);
    if (!row || row.tool !== "social-plan") return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    const token = newOpaqueToken();
    await setFeedToken(db, userId, row.id, await sha256Hex(token));
    return c.json({ url: `${appOrigin(c.env, c.req.url)}/api/calendar/${token}.ics` });
  });
