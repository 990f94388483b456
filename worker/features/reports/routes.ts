// /api/reports: create (prospect + report, enqueue unless Save Only), list, status, read, generate, generate all. Admin only.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import { createProspectWithReport, getReportWithProspect, listReports, reportStatuses } from "./queries";
import {
  CREATE_REPORT_FAILED,
  GENERATION_DEFERRED_MESSAGE,
  NewReportInput,
  newReportErrorMessage,
  prospectFromForm,
} from "./rules/new-report";
import { MAX_ID_LENGTH } from "../../domain/ids";
import { ENQUEUEABLE_STATUSES, REPORT_NOT_FOUND } from "./rules/status";
import type { ReportListResponse, ReportStatusResponse } from "./rules/view";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { validate, validId } from "../../platform/validate";
import { enqueueAllUngenerated, enqueueReport } from "./enqueue";
import { adminReportJson, appOrigin, listItemJson } from "./views";
import { log } from "../../platform/log";
import { emitProspectsCreated } from "../../platform/notifications/emit";
import { ensureProspectAudits, ensureReportAudits } from "../audits";
import { latestProspectAuditView } from "../audits";
import { latestLocalVisibility } from "../rank";
import { latestReportListings } from "../citations";
import { latestReportAiVisibility } from "../ai-visibility";

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
    const input = c.req.valid("json");
    const { prospect, questions } = prospectFromForm(input);
    const db = getDb(c.env);
    let created;
    try {
      created = await createProspectWithReport(db, {
        prospect,
        questions,
        userId: c.get("caller").id,
        queued: input.generate,
      });
    } catch (error) {
      log.error("create report failed", {}, error);
      return apiError(c, 503, ErrorCode.unavailable, CREATE_REPORT_FAILED);
    }
    await emitProspectsCreated(c.env, [{ prospectId: created.prospect.id, reportId: created.report.id, name: created.prospect.name, area: created.prospect.area, source: "new_report" }]);
    let warning: string | undefined;
    // A report with a website, or one to be generated, starts its prospect's audit first (issue 18): the job waits for it.
    if (input.generate || input.website) await ensureProspectAudits(c.env, [created.prospect.id], c.get("caller").id);
    if (input.generate) {
      try {
        await c.env.REPORT_JOBS.send({ reportId: created.report.id });
      } catch (error) {
        // The report stays queued; the sweep sends it later.
        log.error("report-jobs send failed; the sweep sends it later", { reportId: created.report.id }, error);
        warning = GENERATION_DEFERRED_MESSAGE;
      }
    }
    const audit = await latestProspectAuditView(db, created.prospect.id);
    return c.json({ ...adminReportJson(c.env, created.report, created.prospect, appOrigin(c.env, c.req.url), audit), ...(warning ? { warning } : {}) }, 201);
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
    const [audit, localVisibility, listings, aiVisibility] = await Promise.all([
      latestProspectAuditView(db, found.prospect.id),
      latestLocalVisibility(db, found.prospect.id),
      latestReportListings(db, found.prospect.id),
      latestReportAiVisibility(db, found.prospect.id),
    ]);
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
