// /api/prospects (admins): list and search, bulk import from the paste box, tag, delete, CSV export.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireAdmin, requireUser } from "../../platform/auth/middleware";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { decodeCursor, encodeCursor } from "../../platform/db/cursor";
import {
  deleteProspectAndReport,
  findByNames,
  findProspect,
  findProspectWithReport,
  insertProspectsWithReports,
  listAllProspects,
  listProspects,
  type NewProspect,
  type NewReport,
  updateProspectTag,
  type ProspectWithReport,
} from "./queries";
import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  ProspectExportQuery,
  ProspectListQuery,
  ProspectTagUpdate,
  type ProspectDto,
  type ProspectImportResponse,
  type ProspectListResponse,
} from "../accounts/rules/admin-api";
import { toCsv } from "../../domain/csv";
import {
  parseProspectPaste,
  partitionDuplicates,
  ProspectImportRequest,
  type ParsedProspect,
} from "./rules/import";
import { prospectSearchText, questionsToText } from "./rules/prospect";
import { apiError, ErrorCode, invalidCursor } from "../../platform/errors";
import { announce } from "../../platform/events";
import { validate, validId } from "../../platform/validate";
import { log } from "../../platform/log";
import { emitProspectsCreated } from "../../platform/notifications/emit";

export const PROSPECT_NOT_FOUND = "Prospect not found";

/** A prospect as the API returns it: the spec's field names plus its report's id and state. */
export function prospectJson(p: ProspectWithReport): ProspectDto {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    area: p.area,
    keyword: p.keyword,
    phone: p.phone,
    email: p.email,
    tag: p.tag,
    company_name: p.companyName,
    website: p.website ?? null,
    user_id: p.userId,
    created_at: p.createdAt,
    report: p.reportId
      ? {
          id: p.reportId,
          content_generated: Boolean(p.reportContentGenerated),
          status: p.reportStatus ?? "draft",
          opens: Number(p.reportOpens ?? 0),
          last_opened_at: p.reportLastOpenedAt ?? null,
        }
      : null,
    last_chat_at: p.lastChatAt ?? null,
  };
}

const CSV_HEADER = [
  "Name",
  "Company Name",
  "Description",
  "Area",
  "Keyword",
  "Phone",
  "Email",
  "Tag",
  "Created",
  "Report ID",
  "Report Status",
];

/** A just-inserted prospect in the shape the list returns, without reading it back. */
function asListed(p: NewProspect, reportId: string): ProspectWithReport {
  return {
    id: p.id,
    name: p.name,
    description: p.description ?? "",
    area: p.area,
    keyword: p.keyword ?? "",
    phone: p.phone ?? "",
    email: p.email ?? "",
    tag: p.tag ?? null,
    companyName: p.companyName ?? "",
    userId: p.userId ?? null,
    createdAt: p.createdAt!,
    seq: 0,
    reportId,
    reportContentGenerated: false,
    reportStatus: "draft",
  };
}

type Accepted = { parsed: ParsedProspect; row: number; id: string; reportId: string };

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
    const { q } = c.req.valid("query");
    const rows = await listAllProspects(getDb(c.env), q);
    const csv = toCsv([
      CSV_HEADER,
      ...rows.map((p) => [
        p.name,
        p.companyName,
        p.description,
        p.area,
        p.keyword,
        p.phone,
        p.email,
        p.tag,
        p.createdAt,
        p.reportId,
        p.reportStatus,
      ]),
    ]);
    const date = new Date().toISOString().slice(0, 10);
    // The byte-order mark makes spreadsheet apps read the file as UTF-8.
    return c.body(`\uFEFF${csv}`, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="prospects-${date}.csv"`,
    });
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
      const { text, allowDuplicates, startRow = 1 } = c.req.valid("json");
      const parsed = parseProspectPaste(text);
      if (!parsed.ok) return apiError(c, 400, ErrorCode.validation, parsed.error, { text: [parsed.error] });
      if (parsed.total > MAX_IMPORT_ROWS) {
        return apiError(
          c,
          413,
          ErrorCode.payloadTooLarge,
          `Too many rows in one request (${parsed.total.toLocaleString("en-US")}): send at most ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows at a time.`,
        );
      }
      const offset = startRow - 1;
      const db = getDb(c.env);
      const callerId = c.get("caller").id;

      // Duplicates: same name and (phone or area), against the database and earlier rows of this paste.
      const split = allowDuplicates
        ? { accepted: parsed.rows.map((row) => ({ row, id: crypto.randomUUID() })), duplicates: [] }
        : partitionDuplicates(parsed.rows, await findByNames(db, parsed.rows.map((r) => r.name)), () => crypto.randomUUID());
      const accepted: Accepted[] = split.accepted.map(({ row, id }) => ({
        parsed: row,
        row: row.row + offset,
        id,
        reportId: crypto.randomUUID(),
      }));
      const duplicates = split.duplicates.map(({ row, existingId }) => ({ row: row.row + offset, name: row.name, existingId }));

      // One created_at for the request; rowid (insertion order) orders rows within it.
      const now = new Date().toISOString();
      const items = accepted.map(({ parsed: p, id, reportId }) => {
        const prospect: NewProspect = {
          id,
          name: p.name,
          description: p.description,
          area: p.area,
          keyword: p.keyword,
          phone: p.phone,
          email: p.email,
          tag: p.tag,
          companyName: p.company_name,
          website: p.website,
          userId: callerId,
          searchText: prospectSearchText({ ...p }),
          createdAt: now,
        };
        const report: NewReport = {
          id: reportId,
          prospectId: id,
          userId: callerId,
          contentGenerated: false,
          questions: questionsToText(p.questions),
          status: "draft",
          createdAt: now,
        };
        return { prospect, report };
      });

      const errors = parsed.errors.map((e) => ({ row: e.row + offset, message: e.message }));
      let created: { row: number; prospect: ProspectDto; reportId: string }[] = [];
      try {
        await insertProspectsWithReports(db, items);
        created = accepted.map((a, i) => ({
          row: a.row,
          reportId: a.reportId,
          prospect: prospectJson(asListed(items[i]!.prospect, a.reportId)),
        }));
        await emitProspectsCreated(
          c.env,
          items.map((it) => ({ prospectId: it.prospect.id, reportId: it.report.id ?? null, name: it.prospect.name, area: it.prospect.area, source: "import" })),
        );
      } catch (err) {
        // The batch is one transaction: nothing of it landed, so every row of it failed.
        log.error("prospect import failed", {}, err);
        for (const a of accepted) errors.push({ row: a.row, message: `Failed to create prospect: ${a.parsed.name}` });
        errors.sort((x, y) => x.row - y.row);
      }

      const body: ProspectImportResponse = {
        created,
        errors,
        duplicates,
        skipped: parsed.skipped.map((row) => row + offset),
        headerSkipped: parsed.header && offset === 0,
        total: parsed.total,
      };
      return c.json(body);
    },
  )

  .patch("/:id", validate("json", ProspectTagUpdate), validId(PROSPECT_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const { tag } = c.req.valid("json");
    const prospect = await findProspect(db, c.req.valid("param").id);
    if (!prospect) return apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
    await updateProspectTag(db, prospect, tag);
    await announce("prospect.report-changed", {}); // the trigger bumped its report's version
    const updated = await findProspectWithReport(db, prospect.id);
    if (!updated) return apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
    return c.json({ prospect: prospectJson(updated) });
  })

  .delete("/:id", validId(PROSPECT_NOT_FOUND), async (c) => {
    const db = getDb(c.env);
    const prospect = await findProspectWithReport(db, c.req.valid("param").id);
    if (!prospect) return apiError(c, 404, ErrorCode.notFound, PROSPECT_NOT_FOUND);
    await deleteProspectAndReport(db, prospect.id);
    if (prospect.reportId) await announce("prospect.report-changed", { reportId: prospect.reportId });
    return c.json({ deleted: { id: prospect.id, reportId: prospect.reportId } });
  });
