// Request schemas and limits of the admin API (prospects, users, view-as), shared by the worker and the web.
import { z } from "zod";
import { CategorySchema } from "./categories";

/** Rows the client puts in one import request; the server accepts up to MAX_IMPORT_ROWS. */
export const IMPORT_CHUNK_ROWS = 100;
export const MAX_IMPORT_ROWS = 2_000;
/** Largest import body, in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export const PROSPECT_PAGE_SIZE = 60;
export const MAX_PAGE_SIZE = 200;
export const MAX_SEARCH_LENGTH = 200;

const searchParam = z.string().trim().max(MAX_SEARCH_LENGTH).optional().default("");
const limitParam = (fallback: number) =>
  z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(fallback);

export const ProspectListQuery = z.object({
  q: searchParam,
  limit: limitParam(PROSPECT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});
export type ProspectListQuery = z.infer<typeof ProspectListQuery>;

export const ProspectExportQuery = z.object({ q: searchParam });

/** PATCH /api/prospects/:id — one of the 21 categories, or null to clear the tag. */
export const ProspectTagUpdate = z.object({ tag: CategorySchema.nullable() });
export type ProspectTagUpdate = z.infer<typeof ProspectTagUpdate>;

export const USER_FILTERS = ["all", "admins", "regular"] as const;
export type UserFilter = (typeof USER_FILTERS)[number];

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

/** Ids in paths are UUIDs; anything else cannot exist, so it is a 404 rather than a query. */
export const IdParam = z.object({ id: z.string().min(1).max(100) });
