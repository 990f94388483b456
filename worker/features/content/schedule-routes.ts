// /api/schedule: the GMB Post Scheduler's posts — list, place, reschedule or edit, delete.
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { deleteScheduledPost, findConnection, listScheduledPosts, scheduledPostJson } from "../integrations";
import { ScheduleRequest, SchedulePatch, type ScheduleListResponse } from "./rules/gbp-schedule";
import { apiError, ErrorCode } from "../../platform/errors";
import { refusalResponse } from "../../platform/http/paid-run";
import { googleConfig } from "../../platform/providers/google";
import { validate, validId } from "../../platform/validate";
import { reschedulePost, SCHEDULED_POST_NOT_FOUND as NOT_FOUND, schedulePost } from "./schedule";

const ListQuery = z.object({ from: z.iso.datetime({ offset: true }).optional(), to: z.iso.datetime({ offset: true }).optional() });

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
    const scheduled = await schedulePost(getDb(c.env), c.get("caller").id, c.req.valid("json"));
    return scheduled.ok ? c.json({ post: scheduledPostJson(scheduled.row) }, 201) : refusalResponse(c, scheduled.refusal);
  })

  .patch("/:id", validId(NOT_FOUND), validate("json", SchedulePatch), async (c) => {
    const changed = await reschedulePost(getDb(c.env), c.get("caller").id, c.req.param("id"), c.req.valid("json"));
    return changed.ok ? c.json({ post: scheduledPostJson(changed.row) }) : refusalResponse(c, changed.refusal);
  })

  .delete("/:id", validId(NOT_FOUND), async (c) => {
    const outcome = await deleteScheduledPost(getDb(c.env), c.req.param("id"), c.get("caller").id);
    if (outcome === "missing") return apiError(c, 404, ErrorCode.notFound, NOT_FOUND);
    if (outcome === "busy") return apiError(c, 409, ErrorCode.conflict, "This post is being published right now; try again in a minute.");
    return c.body(null, 204);
  });
