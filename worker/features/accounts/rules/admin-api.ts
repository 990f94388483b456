// Request schemas and limits of the admin API (prospects, users, view-as), shared by the worker and the web.
import { STAGES } from "../../pipeline/rules/stages";
import { z } from "zod";
import { CategorySchema } from "../../../domain/categories";
import type { ProfileDto } from "../../profile/rules/profile";
import { nonEmptyLines } from "../../prospects/rules/import";
import { USER_FILTERS } from "../../../platform/auth/rules/accounts";

/** Rows the client puts in one import request; the server accepts up to MAX_IMPORT_ROWS. */
export const IMPORT_CHUNK_ROWS = 100;
export const MAX_IMPORT_ROWS = 2_000;
/** Largest import body, in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export const PROSPECT_PAGE_SIZE = 60;
export const MAX_PAGE_SIZE = 200;
export const MAX_SEARCH_LENGTH = 200;

/** A NUL or other control character would reach FTS5 as an unterminated string: refused, not searched. */
export const SEARCH_CONTROL_CHARACTERS = "Search must not contain control characters";
const searchParam = z
  .string()
  .trim()
  .max(MAX_SEARCH_LENGTH)
  // eslint-disable-next-line no-control-regex
  .refine((q) => !/[\u0000-\u001f\u007f]/.test(q), SEARCH_CONTROL_CHARACTERS)
  .optional()
  .default("");
const limitParam = (fallback: number) =>
  z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(fallback);

/** Orders of the prospects list: newest first, or most recently opened shared report first (issue 10). */
export const PROSPECT_SORTS = ["newest", "opened"] as const;
export type ProspectSort = (typeof PROSPECT_SORTS)[number];

export const ProspectListQuery = z.object({
  q: searchParam,
  limit: limitParam(PROSPECT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
  sort: z.enum(PROSPECT_SORTS).optional().default("newest"),
});
export type ProspectListQuery = z.infer<typeof ProspectListQuery>;

export const ProspectExportQuery = z.object({ q: searchParam });

/** PATCH /api/prospects/:id — one of the 21 categories, or null to clear the tag. */
/** A prospect's tag, and (issue 42) its pipeline stage; at least one of them. */
export const ProspectTagUpdate = z
  .object({ tag: CategorySchema.nullable().optional(), stage: z.enum(STAGES).optional() })
  .refine((v) => v.tag !== undefined || v.stage !== undefined, { message: "Send a tag or a stage" });
export type ProspectTagUpdate = z.infer<typeof ProspectTagUpdate>;

export { USER_FILTERS, type UserFilter } from "../../../platform/auth/rules/accounts";

export const UserListQuery = z.object({
  q: searchParam,
  filter: z.enum(USER_FILTERS).optional().default("all"),
  limit: limitParam(MAX_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

export const AdminStatusUpdate = z.object({ is_admin: z.boolean() });
export type AdminStatusUpdate = z.infer<typeof AdminStatusUpdate>;

export const ViewAsRequest = z.object({ userId: z.string().trim().min(1).max(100) });
export type ViewAsRequest = z.infer<typeof ViewAsRequest>;

/** One request's worth of the paste: its lines and the row number of its first line. */
export type PasteChunk = { text: string; startRow: number; rows: number };

/** Splits a paste into chunks of `size` non-empty lines, keeping the original row numbers. */
export function splitPaste(text: string, size = IMPORT_CHUNK_ROWS): PasteChunk[] {
  const lines = nonEmptyLines(text);
  const chunks: PasteChunk[] = [];
  for (let i = 0; i < lines.length; i += size) {
    const slice = lines.slice(i, i + size);
    chunks.push({ text: slice.join("\n"), startRow: i + 1, rows: slice.length });
  }
  return chunks;
}

// Response shapes (the worker builds them; the web reads them).

export type ReportSummary = {
  id: string;
  content_generated: boolean;
  status: string;
  /** Visits that opened the shared report, and the last one (issue 10). */
  opens?: number;
  last_opened_at?: string | null;
};

export type ProspectDto = {
  id: string;
  name: string;
  description: string;
  area: string;
  keyword: string;
  phone: string;
  email: string;
  tag: string | null;
  company_name: string;
  /** The prospect's website (issue 18), when known. */
  website?: string | null;
  user_id: string | null;
  created_at: string;
  report: ReportSummary | null;
  /** When a visitor last chatted on the report's shared chat link (null: never). */
  last_chat_at?: string | null;
};

export type ProspectListResponse = {
  prospects: ProspectDto[];
  /** Prospects matching the search. */
  total: number;
  /** All prospects. */
  all: number;
  nextCursor: string | null;
};

export type ProspectImportResponse = {
  created: { row: number; prospect: ProspectDto; reportId: string }[];
  errors: { row: number; message: string }[];
  duplicates: { row: number; name: string; existingId: string }[];
  skipped: number[];
  /** True when the paste's first row was column titles and was skipped (issue 26). */
  headerSkipped: boolean;
  total: number;
};

/** A user in the admin list: their profile, as GET /api/profile returns it. */
export type AdminUserDto = ProfileDto;

export type UserListResponse = {
  users: AdminUserDto[];
  total: number;
  counts: { all: number; admins: number; regular: number };
  nextCursor: string | null;
};
