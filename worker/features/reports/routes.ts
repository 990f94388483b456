// /api/reports: create (prospect + report, enqueue unless Save Only), list, status, read, generate, generate all. Admin only.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { getReportWithProspect, listReports, reportStatuses } from "./queries";
import { createReport } from "./create";
import { CREATE_REPORT_FAILED, GENERATION_DEFERRED_MESSAGE, NewReportInput, newReportErrorMessage } from "./rules/new-report";
import { MAX_ID_LENGTH } from "../../domain/ids";
import { ENQUEUEABLE_STATUSES, REPORT_NOT_FOUND } from "./rules/status";
import type { ReportListResponse, ReportStatusResponse } from "./rules/view";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { validate, validId } from "../../platform/validate";
import { enqueueAllUngenerated, enqueueReport } from "./enqueue";
import { adminReportJson, appOrigin, listItemJson, reportSections } from "./views";
import { ensureProspectAudits, ensureReportAudits } from "../audits";

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().default(50),
  cursor: z.string().max(400).optional(),
});

const StatusQuery = z.object({
  ids: z
    .string()
    .transform((s) => [...new Set(s.split(",").map((id) => id.trim()).filter(Boolean))])
    .pipe(z.array(z.string().max(MAX_ID_LENGTH)).min(1, "Give at least one id").max(100, "At most 100 ids")),
});

function notFound(c: Context) {
  return apiError(c, 404, ErrorCode.notFound, REPORT_NOT_FOUND);
}

export const reportRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", validate("query", ListQuery), async (c) => {
    const { limit, cursor: rawCursor } = c.req.valid("query");
    const cursor = rawCursor ? decodeCursor(rawCursor) : null;
    if (rawCursor && !cursor) return invalidCursor(c);
    const page = await listReports(getDb(c.env), { limit, cursor });
    const body: ReportListResponse = {
      reports: page.rows.map(listItemJson),
      nextCursor: page.next ? encodeCursor(page.next) : null,
    };
    return c.json(body);
  })

  .get("/status", validate("query", StatusQuery), async (c) => {
    const rows = await reportStatuses(getDb(c.env), c.req.valid("query").ids);
    const body: ReportStatusResponse = {
      statuses: rows.map((r) => ({
        id: r.id,
        status: r.status,
        source: r.source,
        attempts: r.attempts,
        content_generated: r.contentGenerated,
        generated_at: r.generatedAt,
        claimed_at: r.claimedAt,
      })),
    };
    return c.json(body);
  })

  .post("/", validate("json", NewReportInput, newReportErrorMessage), async (c) => {
    const made = await createReport(c.env, c.req.valid("json"), c.get("caller").id);
    if (!made) return apiError(c, 503, ErrorCode.unavailable, CREATE_REPORT_FAILED);
    const json = adminReportJson(c.env, made.report, made.prospect, appOrigin(c.env, c.req.url), made.audit);
    return c.json({ ...json, ...(made.warning ? { warning: made.warning } : {}) }, 201);
  })

  .post("/generate-all", async (c) => {
    const callerId = c.get("caller").id;
    const { ids, sendFailed } = await enqueueAllUngenerated(c.env, (queued) => ensureReportAudits(c.env, queued, callerId));
    return c.json({ queued: ids.length, ...(sendFailed ? { warning: GENERATION_DEFERRED_MESSAGE } : {}) }, 202);
  })

  .get("/:id", validId(REPORT_NOT_FOUND), async (c) => {
    const { id } = c.req.valid("param");
    const db = getDb(c.env);
    let found = await getReportWithProspect(db, id);
    if (!found) return notFound(c);
    // Opening a report that was never generated starts its generation (never while viewing as someone).
    if (ENQUEUEABLE_STATUSES.includes(found.report.status) && !c.get("viewingAs")) {
      await ensureProspectAudits(c.env, [found.prospect.id], c.get("caller").id);
      const result = await enqueueReport(c.env, id);
      if (result.enqueued) found = (await getReportWithProspect(db, id)) ?? found;
    }
    const { audit, localVisibility, listings, aiVisibility } = await reportSections(db, found.prospect.id);
    return c.json(adminReportJson(c.env, found.report, found.prospect, appOrigin(c.env, c.req.url), audit, localVisibility, listings, aiVisibility));
  })

  .post("/:id/generate", validId(REPORT_NOT_FOUND), async (c) => {
    const { id } = c.req.valid("param");
    const db = getDb(c.env);
    const found = await getReportWithProspect(db, id);
    if (!found) return notFound(c);
    if (ENQUEUEABLE_STATUSES.includes(found.report.status)) await ensureProspectAudits(c.env, [found.prospect.id], c.get("caller").id);
    const result = await enqueueReport(c.env, id);
    const current = result.enqueued ? ((await getReportWithProspect(db, id)) ?? found) : found;
    return c.json(
      {
        ...adminReportJson(c.env, current.report, current.prospect, appOrigin(c.env, c.req.url)),
        enqueued: result.enqueued,
        ...(result.sendFailed ? { warning: GENERATION_DEFERRED_MESSAGE } : {}),
      },
      202,
    );
  });
