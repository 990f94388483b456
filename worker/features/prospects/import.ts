// The bulk import from the paste box: parse, set aside duplicates (unless asked not to), insert each prospect with its
// draft report in one transaction, tell the agency. Rows are numbered from `startRow`, so a paste sent in parts
// reports the rows of the whole paste.
import type { Env } from "../../platform/env";
import { getDb } from "../../platform/db/client";
import { ErrorCode, type FieldErrors } from "../../platform/errors";
import { log } from "../../platform/log";
import { emitProspectsCreated } from "../../platform/notifications/emit";
import { MAX_IMPORT_ROWS, type ProspectDto, type ProspectImportResponse } from "../accounts/rules/admin-api";
import { findByNames, insertProspectsWithReports, type NewProspect, type NewReport } from "./queries";
import { parseProspectPaste, partitionDuplicates, type ParsedProspect, type ProspectImportRequest } from "./rules/import";
import { prospectSearchText, questionsToText } from "./rules/prospect";
import { asListed, prospectJson } from "./view";

export type ImportRefusal = { status: 400 | 413; code: string; message: string; fields?: FieldErrors };
type Accepted = { parsed: ParsedProspect; row: number; id: string; reportId: string };

/** The prospect and its draft report as one accepted row is stored (one `createdAt` for the whole request). */
function newRows(p: ParsedProspect, ids: { id: string; reportId: string }, userId: string, now: string): { prospect: NewProspect; report: NewReport } {
  const { id, reportId } = ids;
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
    userId,
    searchText: prospectSearchText({ ...p }),
    createdAt: now,
  };
  const report: NewReport = { id: reportId, prospectId: id, userId, contentGenerated: false, questions: questionsToText(p.questions), status: "draft", createdAt: now };
  return { prospect, report };
}

/** Imports one paste for `callerId`: what was created, the rows in error, the duplicates and the skipped rows; or why not. */
export async function importProspects(
  env: Env,
  callerId: string,
  { text, allowDuplicates, startRow = 1 }: ProspectImportRequest,
): Promise<{ ok: true; body: ProspectImportResponse } | { ok: false; refusal: ImportRefusal }> {
  const parsed = parseProspectPaste(text);
  if (!parsed.ok) return { ok: false, refusal: { status: 400, code: ErrorCode.validation, message: parsed.error, fields: { text: [parsed.error] } } };
  if (parsed.total > MAX_IMPORT_ROWS) {
    const message = `Too many rows in one request (${parsed.total.toLocaleString("en-US")}): send at most ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows at a time.`;
    return { ok: false, refusal: { status: 413, code: ErrorCode.payloadTooLarge, message } };
  }
  const offset = startRow - 1;
  const db = getDb(env);

  // Duplicates: same name and (phone or area), against the database and earlier rows of this paste.
  const split = allowDuplicates
    ? { accepted: parsed.rows.map((row) => ({ row, id: crypto.randomUUID() })), duplicates: [] }
    : partitionDuplicates(parsed.rows, await findByNames(db, parsed.rows.map((r) => r.name)), () => crypto.randomUUID());
  const accepted: Accepted[] = split.accepted.map(({ row, id }) => ({ parsed: row, row: row.row + offset, id, reportId: crypto.randomUUID() }));
  const duplicates = split.duplicates.map(({ row, existingId }) => ({ row: row.row + offset, name: row.name, existingId }));

  // One created_at for the request; rowid (insertion order) orders rows within it.
  const now = new Date().toISOString();
  const items = accepted.map((a) => newRows(a.parsed, a, callerId, now));

  const errors = parsed.errors.map((e) => ({ row: e.row + offset, message: e.message }));
  let created: { row: number; prospect: ProspectDto; reportId: string }[] = [];
  try {
    await insertProspectsWithReports(db, items);
    created = accepted.map((a, i) => ({ row: a.row, reportId: a.reportId, prospect: prospectJson(asListed(items[i]!.prospect, a.reportId)) }));
    await emitProspectsCreated(
      env,
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
  return { ok: true, body };
}
