// /api/schedule: the GMB Post Scheduler's posts — list, place, reschedule or edit, delete.
import { Hono } from "hono";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { deleteScheduledPost, findConnection, findScheduledPost, insertScheduledPost, listScheduledPosts, parseLocations, scheduledPostJson, updateScheduledPost } from "../integrations";
import { editableState, scheduleTimeProblem, ScheduleRequest, SchedulePatch, type ScheduleListResponse, type ScheduleState } from "./rules/gbp-schedule";
import { apiError, ErrorCode } from "../../platform/errors";
import { googleConfig } from "../../platform/providers/google";
import { validate, validId } from "../../platform/validate";
import { z } from "zod";
import type { Context } from "hono";

const NOT_FOUND = "Scheduled post not found";

const ListQuery = z.object({ from: z.iso.datetime({ offset: true }).optional(), to: z.iso.datetime({ offset: true }).optional() });

/** The location must be one the user chose on the Integrations page; null places a reminder. */
async function resolveLocation(c: Context<AppEnv>, userId: string, name: string | null | undefined) {
  if (!name) return { ok: true as const, name: null, title: null };
  const row = await findConnection(getDb(c.env), userId);
  const chosen = row ? parseLocations(row.chosenLocations).find((l) => l.name === name) : undefined;
  if (!chosen) return { ok: false as const };
  return { ok: true as const, name: chosen.name, title: chosen.title };
}

const timeError = (c: Context<AppEnv>, problem: string) => apiError(c, 400, ErrorCode.validation, `scheduledAt: ${problem}`, { scheduledAt: [problem] });
const locationError = (c: Context<AppEnv>) =>
  apiError(c, 400, ErrorCode.validation, "locationName: Pick one of the locations you chose on the Integrations page", { locationName: ["Pick one of the locations you chose on the Integrations page"] });

export const scheduleRoutes = new Hono<AppEnv>()
  .use(requireUser)

  .get("/", validate("query", ListQuery), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("subject").id;
    const [rows, connection] = await Promise.all([listScheduledPosts(db, userId, c.req.valid("query")), findConnection(db, userId)]);
    const body: ScheduleListResponse = { posts: rows.map(scheduledPostJson), publishing: Boolean(googleConfig(c.env) && connection?.status === "connected") };
    return c.json(body);
  })

  .post("/", validate("json", ScheduleRequest), async (c) => {
    const userId = c.get("caller").id;
    const req = c.req.valid("json");
    const problem = scheduleTimeProblem(req.scheduledAt);
    if (problem) return timeError(c, problem);
    const location = await resolveLocation(c, userId, req.locationName);
    if (!location.ok) return locationError(c);
    const row = await insertScheduledPost(getDb(c.env), {
      userId,
      post: req.post,
      scheduledAt: new Date(req.scheduledAt).toISOString(),
      timezone: req.timezone,
      locationName: location.name,
      locationTitle: location.title,
      contentId: req.contentId ?? null,
    });
    return c.json({ post: scheduledPostJson(row) }, 201);
  })

  .patch("/:id", validId(NOT_FOUND), validate("json", SchedulePatch), async (c) => {
    const db = getDb(c.env);
    const userId = c.get("caller").id;
    const id = c.req.param("id");
    const patch = c.req.valid("json");
    const existing = await findScheduledPost(db, id, userId);
    if (!existing) return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    if (!editableState(existing.state as ScheduleState)) {
      return apiError(c, 409, ErrorCode.conflict, "This post has already gone to Google, so it can no longer be changed.");
    }
    if (patch.scheduledAt) {
      const problem = scheduleTimeProblem(patch.scheduledAt);
      if (problem) return timeError(c, problem);
    }
    let location: { name: string | null; title: string | null } | undefined;
    if (patch.locationName !== undefined) {
      const resolved = await resolveLocation(c, userId, patch.locationName);
      if (!resolved.ok) return locationError(c);
      location = resolved;
    }
    const row = await updateScheduledPost(db, id, userId, {
      post: patch.post,
      scheduledAt: patch.scheduledAt ? new Date(patch.scheduledAt).toISOString() : undefined,
      timezone: patch.timezone,
      ...(location ? { locationName: location.name, locationTitle: location.title } : {}),
    });
    if (!row) return apiError(c, 409, ErrorCode.conflict, "This post has already gone to Google, so it can no longer be changed.");
    return c.json({ post: scheduledPostJson(row) });
  })

  .delete("/:id", validId(NOT_FOUND), async (c) => {
    const outcome = await deleteScheduledPost(getDb(c.env), c.req.param("id"), c.get("caller").id);
    if (outcome === "missing") return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    if (outcome === "busy") return apiError(c, 409, ErrorCode.conflict, "This post is being published right now; try again in a minute.");
    return c.body(null, 204);
  });
