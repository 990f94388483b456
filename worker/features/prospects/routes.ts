// /api/prospects (admins): list and search, bulk import from the paste box, tag, delete, CSV export.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import {
  deleteProspectAndReport,
  findProspect,
  findProspectWithReport,
  listProspects,
  updateProspectTag,
} from "./queries";
import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  ProspectExportQuery,
  ProspectListQuery,
  ProspectTagUpdate,
  type ProspectListResponse,
} from "../accounts/rules/admin-api";
import { ProspectImportRequest } from "./rules/import";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { announce } from "../../platform/events";
import { validate, validId } from "../../platform/validate";
import { importProspects } from "./import";
import { prospectJson, prospectsCsv } from "./view";

export const PROSPECT_NOT_FOUND = "Prospect not found";

export const prospectRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)

  .get("/", validate("query", ProspectListQuery), async (c) => {
    const { q, limit, cursor: cursorText, sort } = c.req.valid("query");
    const cursor = cursorText ? decodeCursor(cursorText) : null;
    if (cursorText && !cursor) return invalidCursor(c);
    const page = await listProspects(getDb(c.env), { q, limit, cursor, sort });
    const body: ProspectListResponse = {
      prospects: page.items.map(prospectJson),
      total: page.total,
      all: page.all,
      nextCursor: page.next ? encodeCursor(page.next) : null,
    };
    return c.json(body);
  })

  .get("/export.csv", validate("query", ProspectExportQuery), async (c) => {
    const file = await prospectsCsv(getDb(c.env), c.req.valid("query").q);
    return c.body(file.text, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${file.filename}"` });
  })

  .post(
    "/import",
    bodyLimit({
      maxSize: MAX_IMPORT_BYTES,
      onError: (c) =>
        apiError(
          c,
          413,
          ErrorCode.payloadTooLarge,
          `The pasted text is too large: send at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows per request.`,
        ),
    }),
    validate("json", ProspectImportRequest),
    async (c) => {
      const imported = await importProspects(c.env, c.get("caller").id, c.req.valid("json"));
      if (!imported.ok) return apiError(c, imported.refusal.status, imported.refusal.code, imported.refusal.message, imported.refusal.fields);
      return c.json(imported.body);
    },
  )

  .patch("/:id", validate("json", ProspectTagUpdate), validId(PROSPECT_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const input = c.req.valid("json");
    const prospect = await findProspect(db, c.req.valid("param").id);
    if (!prospect) return apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
    if (input.tag !== undefined) {
      await updateProspectTag(db, prospect, input.tag);
      await announce("prospect.report-changed", {}); // the trigger bumped its report's version
    }
    // The pipeline's stage (issue 42): moved by the pipeline capability, kept on the prospect's timeline.
    if (input.stage) await announce("prospect.stage-set", { env: c.env, db, prospectId: prospect.id, stage: input.stage, by: c.get("subject").id });
    const updated = await findProspectWithReport(db, prospect.id);
    if (!updated) return apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
    return c.json({ prospect: prospectJson(updated), ...(input.stage ? { stage: input.stage } : {}) });
  })

  .delete("/:id", validId(PROSPECT_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const prospect = await findProspectWithReport(db, c.req.valid("param").id);
    if (!prospect) return apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
    await deleteProspectAndReport(db, prospect.id);
    if (prospect.reportId) await announce("prospect.report-changed", { reportId: prospect.reportId });
    return c.json({ deleted: { id: prospect.id, reportId: prospect.reportId } });
  });
