// /api/pipeline and POST /api/prospects/:id/convert (issue 42), for admins: the board, a prospect's timeline, and a won
// prospect invited to become a client. A prospect's stage is set through PATCH /api/prospects/:id `{stage}`.
import { Hono } from "hono";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { apiError, ErrorCode, HttpError } from "../../platform/errors";
import { appOrigin } from "../../platform/origin";
import { validate, validId } from "../../platform/validate";
import { convert } from "./pipeline";
import { pipelineView, timelineView } from "./view";
import { PIPELINE_WORDING, PipelineQuery } from "./rules/stages";

const PROSPECT_NOT_FOUND = "Prospect not found";

export const pipelineRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", validate("query", PipelineQuery), async (c) => c.json(await pipelineView(getDb(c.env), c.req.valid("query"), c.get("subject").id)))

  .get("/:id", validId(PROSPECT_NOT_FOUND), async (c) => {
    const timeline = await timelineView(getDb(c.env), c.req.valid("param").id);
    return timeline ? c.json(timeline) : apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
  });

export const convertRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .post("/:id/convert", validId(PROSPECT_NOT_FOUND), async (c) => {
    try {
      const invited = await convert(c.env, getDb(c.env), c.req.valid("param").id, c.get("subject").id, appOrigin(c.env, c.req.url));
      return c.json({ ...invited, message: PIPELINE_WORDING.converted });
    } catch (error) {
      if (error instanceof HttpError) return apiError(c, error.status, error.code, error.message);
      throw error;
    }
  });
