// Queries for Users Management and view-as: the profile list, admin toggles and the audit log.
import { and, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { UserFilter } from "./rules/accounts";
import type { Db } from "../db/client";
import { getProfile, type ProfileRow } from "./users";
import { afterCursor, containsPattern, type Cursor } from "../db/cursor";
import { auditLog, profiles } from "./tables";

export const AuditAction = {
  adminGrant: "admin_grant",
  adminRevoke: "admin_revoke",
  viewAsStart: "view_as_start",
  aiBudgetSet: "ai_budget_set",
  /** One request made while viewing as another user (reads, and writes refused). */
  viewAsRequest: "view_as_request",
  /** A bulk action an admin started for selected clients from the clients view (issue 41). */
  clientsBulk: "clients_bulk",
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];

function filterCondition(filter: UserFilter): SQL | undefined {
  if (filter === "admins") return eq(profiles.isAdmin, true);
  if (filter === "regular") return eq(profiles.isAdmin, false);
  return undefined;
}

/** Email or company name containing `q`, case-insensitively. */
function userSearchCondition(q: string): SQL | undefined {
  const needle = q.trim().toLowerCase();
  if (needle === "") return undefined;
  const pattern = containsPattern(needle);
  return or(
    sql`lower(coalesce(${profiles.email}, '')) like ${pattern} escape '\\'`,
    sql`lower(coalesce(${profiles.companyName}, '')) like ${pattern} escape '\\'`,
  );
}

// Explicit columns, plus the rowid as a tie-breaker for the keyset cursor.
const profileColumns = {
  id: profiles.id,
  email: profiles.email,
  isAdmin: profiles.isAdmin,
  companyName: profiles.companyName,
  companyWebsite: profiles.companyWebsite,
  companyPhone: profiles.companyPhone,
  companyLocation: profiles.companyLocation,
  companyStreetAddress: profiles.companyStreetAddress,
  companyEmail: profiles.companyEmail,
  companyCategory: profiles.companyCategory,
  companyDescription: profiles.companyDescription,
  companyLogoUrl: profiles.companyLogoUrl,
  timeZone: profiles.timeZone,
  createdAt: profiles.createdAt,
  updatedAt: profiles.updatedAt,
  seq: sql<number>`${profiles}.rowid`.as("seq"),
};

/** Profiles newest first, with the match count and the counts per role, in one round trip. */
export async function listProfiles(db: Db, opts: { q: string; filter: UserFilter; limit: number; cursor: Cursor | null }) {
  const where = and(userSearchCondition(opts.q), filterCondition(opts.filter));
  const page = db
    .select(profileColumns)
    .from(profiles)
    .where(and(where, opts.cursor ? afterCursor(profiles, profiles.createdAt, opts.cursor) : undefined))
    .orderBy(desc(profiles.createdAt), sql`${profiles}.rowid desc`)
    .limit(opts.limit + 1);
  const matching = db.select({ n: count() }).from(profiles).where(where);
  const roles = db
    .select({ admins: sql<number>`coalesce(sum(${profiles.isAdmin}), 0)`, all: count() })
    .from(profiles);
  const [rows, [matched], [role]] = await db.batch([page, matching, roles]);
  const hasMore = rows.length > opts.limit;
  const items = hasMore ? rows.slice(0, opts.limit) : rows;
  const last = items[items.length - 1];
  const all = role?.all ?? 0;
  const admins = Number(role?.admins ?? 0);
  return {
    items: items.map(({ seq: _seq, ...row }): ProfileRow => row),
    total: matched?.n ?? 0,
    counts: { all, admins, regular: all - admins },
    next: hasMore && last ? { createdAt: last.createdAt, seq: last.seq } : null,
  };
}

/** Flips is_admin and records who did it, in one batch. Returns the updated profile. */
export async function setAdminStatus(db: Db, actorId: string, targetId: string, isAdmin: boolean) {
  await db.batch([
    db.update(profiles).set({ isAdmin, updatedAt: new Date().toISOString() }).where(eq(profiles.id, targetId)),
    db.insert(auditLog).values({
      id: crypto.randomUUID(),
      actorId,
      action: isAdmin ? AuditAction.adminGrant : AuditAction.adminRevoke,
      targetId,
      detail: JSON.stringify({ is_admin: isAdmin }),
      createdAt: new Date().toISOString(),
    }),
  ]);
  return getProfile(db, targetId);
}

export async function recordAudit(db: Db, entry: { actorId: string; action: AuditAction; targetId: string; detail?: unknown }) {
  await db.insert(auditLog).values({
    id: crypto.randomUUID(),
    actorId: entry.actorId,
    action: entry.action,
    targetId: entry.targetId,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    createdAt: new Date().toISOString(),
  });
}
