// /api/shared/reports/:id: the public report (no sign-in, never the phone), edge-cached by id + version with ETag.
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { apiError, ErrorCode } from "../../platform/errors";
import { validId } from "../../platform/validate";
import { REPORT_NOT_FOUND } from "./rules/status";
import { sendShared, sharedRequest } from "./shared-cache";
import { sharedReportJson } from "./shared";

export const sharedReportRoutes = new Hono<AppEnv>().get("/:id", validId(REPORT_NOT_FOUND), async (c) => {
  const answer = await sharedReportJson(c.env, c.req.valid("param").id, sharedRequest(c));
  if (!answer) return apiError(c, 404, ErrorCode.notFound, REPORT_NOT_FOUND);
  // A report still generating is read fresh every time.
  if ("fresh" in answer) return c.json(answer.fresh, 200, { "Cache-Control": "no-store", "X-Cache": "BYPASS" });
  return sendShared(c, answer);
});
