// Queries for prospects and the report each one has: list/search, duplicate lookup, bulk import, tag, delete.
import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ProspectSort } from "../accounts/rules/admin-api";
import { prospectSearchText } from "./rules/prospect";
import { D1_MAX_PARAMS, firstRow, rowsPerInsert, type Db } from "../../platform/db/client";
import { afterCursor, containsPattern, rowid, type Cursor } from "../../platform/db/cursor";
import { prospects } from "./tables";
import { reportViewStats, seoReports } from "../reports/tables";
import { chatSessions } from "../chat/tables";

/** When a prospect last chatted on the shared link: a correlated read of chat_sessions_report_last_idx. */
const lastChatAt = sql<string | null>`(select max(${chatSessions.lastMessageAt}) from ${chatSessions} where ${chatSessions.reportId} = ${seoReports.id})`;

export type ProspectRow = typeof prospects.$inferSelect;
export type NewProspect = typeof prospects.$inferInsert;
export type NewReport = typeof seoReports.$inferInsert;

/** A string of at least this many characters is searched through the trigram index. */
export const TRIGRAM_MIN_CHARS = 3;

const listColumns = {
  id: prospects.id,
  name: prospects.name,
  description: prospects.description,
  area: prospects.area,
  keyword: prospects.keyword,
  phone: prospects.phone,
  email: prospects.email,
  tag: prospects.tag,
  companyName: prospects.companyName,
  website: prospects.website,
  userId: prospects.userId,
  createdAt: prospects.createdAt,
  seq: rowid(prospects),
  // Aliased: D1 returns rows positionally by name, and two columns called "id" would collide.
  reportId: sql<string | null>`${seoReports.id}`.as("report_id"),
  reportContentGenerated: sql<number | null>`${seoReports.contentGenerated}`.as("report_content_generated"),
  reportStatus: sql<string | null>`${seoReports.status}`.as("report_status"),
  lastChatAt: lastChatAt.as("last_chat_at"),
  // Shared-report views (issue 10), from the trigger-kept stats row: still one query.
  reportOpens: sql<number | null>`${reportViewStats.opens}`.as("report_opens"),
  reportLastOpenedAt: sql<string | null>`${reportViewStats.lastOpenedAt}`.as("report_last_opened_at"),
};

/** A listed prospect: its columns (not search_text), its rowid and its report's id and state. */
export type ProspectWithReport = Pick<
  ProspectRow,
  "id" | "name" | "description" | "area" | "keyword" | "phone" | "email" | "tag" | "companyName" | "userId" | "createdAt"
> & {
  website?: string | null;
  seq: number;
  reportId: string | null;
  reportContentGenerated: boolean | number | null;
  reportStatus: string | null;
  /** When a visitor last chatted on the report's shared chat link. */
  lastChatAt?: string | null;
  reportOpens?: number | null;
  reportLastOpenedAt?: string | null;
};

/** Double quotes inside an FTS5 string are doubled; the whole needle is one phrase (a substring). */
function ftsPhrase(needle: string): string {
  return `"${needle.replace(/"/g, '""')}"`;
}

/**
 * The search condition over the eight searchable fields (kept lowercased in search_text): the FTS5
 * trigram index for 3+ characters, a LIKE scan below that (a trigram index cannot answer 1–2 chars).
 */
export function searchCondition(q: string): SQL | undefined {
  const needle = q.trim().toLowerCase();
  if (needle === "") return undefined;
  if (usesTrigramIndex(needle)) {
    return sql`${prospects}.rowid in (select rowid from prospects_fts where prospects_fts match ${ftsPhrase(needle)})`;
  }
  return sql`${prospects.searchText} like ${containsPattern(needle)} escape '\\'`;
}

function usesTrigramIndex(needle: string): boolean {
  return Array.from(needle).length >= TRIGRAM_MIN_CHARS;
}

/** How many prospects match: counted in the index itself when it answers (one index row per prospect). */
function countMatching(db: Db, q: string, search: SQL) {
  const needle = q.trim().toLowerCase();
  if (usesTrigramIndex(needle)) {
    return db.select({ n: count() }).from(sql`prospects_fts`).where(sql`prospects_fts match ${ftsPhrase(needle)}`);
  }
  return db.select({ n: count() }).from(prospects).where(search);
}


/** The "opened" order's key: last open time ('' for never opened, so those come last), then rowid. */
const openedKey = sql<string>`coalesce(${reportViewStats.lastOpenedAt}, '')`;

function listQuery(db: Db, where: SQL | undefined, sort: ProspectSort = "newest") {
  const query = db
    .select(listColumns)
    .from(prospects)
    .leftJoin(seoReports, eq(seoReports.prospectId, prospects.id))
    .leftJoin(reportViewStats, eq(reportViewStats.reportId, seoReports.id))
    .where(where);
  return sort === "opened"
    ? query.orderBy(sql`${openedKey} desc`, sql`${prospects}.rowid desc`)
    : query.orderBy(desc(prospects.createdAt), sql`${prospects}.rowid desc`);
}

/** Rows after the cursor in the list's order; for "opened" the cursor's createdAt holds the open time. */
function afterListCursor(sort: ProspectSort, cursor: Cursor): SQL {
  return sort === "opened"
    ? sql`(${openedKey}, ${prospects}.rowid) < (${cursor.createdAt}, ${cursor.seq})`
    : afterCursor(prospects, prospects.createdAt, cursor);
}

/** One page, newest first, with the number of matches and of all prospects, in one round trip. */
export async function listProspects(db: Db, opts: { q: string; limit: number; cursor: Cursor | null; sort?: ProspectSort }) {
  const search = searchCondition(opts.q);
  const sort = opts.sort ?? "newest";
  const page = listQuery(db, and(search, opts.cursor ? afterListCursor(sort, opts.cursor) : undefined), sort).limit(opts.limit + 1);
  const all = db.select({ n: count() }).from(prospects);
  let rows: unknown[];
  let overall: number;
  let matched: number;
  if (search) {
    const [r, [m], [a]] = await db.batch([page, countMatching(db, opts.q, search), all]);
    [rows, matched, overall] = [r, m?.n ?? 0, a?.n ?? 0];
  } else {
    const [r, [a]] = await db.batch([page, all]);
    [rows, matched, overall] = [r, a?.n ?? 0, a?.n ?? 0];
  }
  const hasMore = rows.length > opts.limit;
  const items = (hasMore ? rows.slice(0, opts.limit) : rows) as ProspectWithReport[];
  const last = items[items.length - 1];
  return {
    items,
    total: matched,
    all: overall,
    next:
      hasMore && last
        ? { createdAt: sort === "opened" ? (last.reportLastOpenedAt ?? "") : last.createdAt, seq: last.seq }
        : null,
  };
}

/** Every prospect matching the search, newest first (the CSV export). */
export async function listAllProspects(db: Db, q: string): Promise<ProspectWithReport[]> {
  return (await listQuery(db, searchCondition(q))) as ProspectWithReport[];
}

export async function findProspectWithReport(db: Db, id: string): Promise<ProspectWithReport | undefined> {
  const rows = await listQuery(db, eq(prospects.id, id)).limit(1);
  return rows[0] as ProspectWithReport | undefined;
}

/** The case-folding SQLite's lower() does (ASCII only), so keys match the prospects_name_lower_idx index. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
}

/**
 * Existing prospects whose name matches one of `names` case-insensitively: the candidates the
 * duplicate rule (same name and phone, or same name and area) is then applied to.
 */
export async function findByNames(db: Db, names: readonly string[]) {
  const keys = [...new Set(names.map((name) => asciiLower(name.trim())).filter((key) => key !== ""))];
  const out: { id: string; name: string; phone: string; area: string }[] = [];
  for (let i = 0; i < keys.length; i += D1_MAX_PARAMS) {
    const slice = keys.slice(i, i + D1_MAX_PARAMS);
    out.push(
      ...(await db
        .select({ id: prospects.id, name: prospects.name, phone: prospects.phone, area: prospects.area })
        .from(prospects)
        .where(inArray(sql`lower(${prospects.name})`, slice))),
    );
  }
  return out;
}

/**
 * Inserts prospects and their reports in ONE D1 batch (a transaction: all land or none do), as
 * multi-row INSERTs chunked so that no statement binds more than 100 parameters.
 */
export async function insertProspectsWithReports(db: Db, items: { prospect: NewProspect; report: NewReport }[]) {
  if (items.length === 0) return;
  const statements: BatchItem<"sqlite">[] = [];
  const prospectRows = items.map((item) => item.prospect);
  const reportRows = items.map((item) => item.report);
  const perProspect = rowsPerInsert(db.insert(prospects).values(prospectRows[0]!).toSQL().params.length);
  for (let i = 0; i < prospectRows.length; i += perProspect) {
    statements.push(db.insert(prospects).values(prospectRows.slice(i, i + perProspect)));
  }
  const perReport = rowsPerInsert(db.insert(seoReports).values(reportRows[0]!).toSQL().params.length);
  for (let i = 0; i < reportRows.length; i += perReport) {
    statements.push(db.insert(seoReports).values(reportRows.slice(i, i + perReport)));
  }
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** Sets the tag and keeps search_text in step (the tag is one of the searched fields). */
export async function updateProspectTag(db: Db, prospect: ProspectRow, tag: string | null) {
  const searchText = prospectSearchText({
    name: prospect.name,
    area: prospect.area,
    keyword: prospect.keyword,
    tag,
    description: prospect.description,
    company_name: prospect.companyName,
    phone: prospect.phone,
    email: prospect.email,
  });
  await db.update(prospects).set({ tag, searchText }).where(eq(prospects.id, prospect.id));
}

export async function findProspect(db: Db, id: string) {
  return firstRow(db, prospects, eq(prospects.id, id));
}

/** Removes the report, then the prospect, in one batch (spec §4: the report is removed first). */
export async function deleteProspectAndReport(db: Db, id: string) {
  await db.batch([db.delete(seoReports).where(eq(seoReports.prospectId, id)), db.delete(prospects).where(eq(prospects.id, id))]);
}
