// The clients view's named queries: a client's context for its health mark (one batch), the row's upsert (one
// statement), the rows to fill, the list (one indexed read with its joins), the account manager, an admin's view settings.
import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { batchedRead, runReads } from "../../platform/db/batched-read";
import { profiles, users } from "../../platform/auth/tables";
import { gbpConnections } from "../integrations/tables";
import { agencyViewSettings, attentionItems, clientSummaries } from "./tables";
import type { ClientFigureGroup } from "../../platform/events";
import type { AttentionKind } from "./rules/attention";
import type { Health } from "./rules/health";
import type { ClientFilter, ClientSort } from "./rules/clients";

export type SummaryRow = typeof clientSummaries.$inferSelect;

export type ClientContext = {
  summary: SummaryRow | null;
  google: "none" | "connected" | "needs_reconnect";
  attention: Partial<Record<AttentionKind, number>>;
  /** The fields of the client's open Google edits. */
  googleFields: string[];
};

/** What the health mark reads besides the changed group, in one batch; null for an admin (not a client) or no such user. */
export async function clientContext(db: Db, userId: string): Promise<ClientContext | null> {
  const [ctx] = await runReads(db, clientContextRead(db, userId));
  return ctx;
}

/** clientContext's queries, for a caller's batch. */
export function clientContextRead(db: Db, userId: string) {
  return batchedRead([
    db.select({ isAdmin: profiles.isAdmin }).from(profiles).where(eq(profiles.id, userId)),
    db.select().from(clientSummaries).where(eq(clientSummaries.userId, userId)),
    db.select({ status: gbpConnections.status }).from(gbpConnections).where(eq(gbpConnections.userId, userId)),
    db
      .select({ kind: attentionItems.kind, n: sql<number>`count(*)` })
      .from(attentionItems)
      .where(and(eq(attentionItems.userId, userId), eq(attentionItems.status, "open")))
      .groupBy(attentionItems.kind),
    db
      .select({ field: sql<string>`json_extract(${attentionItems.data}, '$.field')` })
      .from(attentionItems)
      .where(and(eq(attentionItems.userId, userId), eq(attentionItems.kind, "google_updated"), eq(attentionItems.status, "open"))),
  ], ([profile, summary, connection, counts, changes]) => contextOf(profile, summary, connection, counts, changes));
}

function contextOf(
  profile: { isAdmin: boolean }[],
  summary: SummaryRow[],
  connection: { status: string }[],
  counts: { kind: string; n: number }[],
  changes: { field: string }[],
): ClientContext | null {
  if (!profile[0] || profile[0].isAdmin) return null;
  const status = connection[0]?.status;
  return {
    summary: summary[0] ?? null,
    google: !status ? "none" : status === "needs_reconnect" ? "needs_reconnect" : "connected",
    attention: Object.fromEntries(counts.map((c) => [c.kind, Number(c.n)])),
    googleFields: [...new Set(changes.map((c) => c.field).filter(Boolean))],
  };
}

/** Writes the changed groups and the health mark in one statement (a new client's row made on the way). */
export async function saveSummary(db: Db, userId: string, groups: Partial<Record<ClientFigureGroup, unknown>>, health: Health, refreshedAt?: string) {
  const values = Object.fromEntries(Object.entries(groups).map(([g, v]) => [g, v === null || v === undefined ? null : JSON.stringify(v)])) as Partial<Record<ClientFigureGroup, string | null>>;
  const mark = { health: ["fine", "watch", "act"].indexOf(health.level), healthScore: health.score, healthReasons: JSON.stringify(health.reasons) };
  const now = new Date().toISOString();
  await db
    .insert(clientSummaries)
    .values({ userId, ...values, ...mark, ...(refreshedAt ? { refreshedAt } : {}), updatedAt: now })
    .onConflictDoUpdate({ target: clientSummaries.userId, set: { ...values, ...mark, ...(refreshedAt ? { refreshedAt } : {}), updatedAt: now } });
}

/** Clients (not admins) whose row was never filled, or not since `before`. */
export async function clientsToFill(db: Db, before: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .leftJoin(clientSummaries, eq(clientSummaries.userId, profiles.id))
    .where(and(eq(profiles.isAdmin, false), or(isNull(clientSummaries.refreshedAt), lt(clientSummaries.refreshedAt, before))))
    .orderBy(asc(clientSummaries.refreshedAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

export type ListedClient = {
  userId: string;
  email: string;
  name: string | null;
  managerId: string | null;
  managerEmail: string | null;
  plan: string | null;
  google: string | null;
  summary: SummaryRow | null;
};

const managers = sql`(select u.email from users u where u.id = ${clientSummaries.managerId})`;
const planOf = sql<string | null>`(select s.plan from subscriptions s where s.user_id = ${profiles.id} and s.status in ('active', 'trialing', 'past_due') order by s.updated_at desc limit 1)`;

const SORTS: Record<ClientSort, SQL[]> = {
  health: [sql`coalesce(${clientSummaries.healthScore}, 0) desc`],
  name: [sql`lower(coalesce(${profiles.companyName}, ${users.email})) asc`],
  reviews: [sql`coalesce(json_extract(${clientSummaries.reviews}, '$.lowUnanswered'), 0) desc`, sql`coalesce(json_extract(${clientSummaries.reviews}, '$.unanswered'), 0) desc`],
  rank: [sql`json_extract(${clientSummaries.rank}, '$.solv') is null`, sql`json_extract(${clientSummaries.rank}, '$.solv') asc`],
  citations: [sql`json_extract(${clientSummaries.citations}, '$.score') is null`, sql`json_extract(${clientSummaries.citations}, '$.score') asc`],
  ai: [sql`json_extract(${clientSummaries.ai}, '$.mentionRate') is null`, sql`json_extract(${clientSummaries.ai}, '$.mentionRate') asc`],
  usage: [sql`coalesce(json_extract(${clientSummaries.usage}, '$.spentCents'), 0) desc`],
};

function filterWhere(filter: ClientFilter): SQL | undefined {
  switch (filter) {
    case "act":
      return eq(clientSummaries.health, 2);
    case "watch":
      return sql`${clientSummaries.health} >= 1`;
    case "google_off":
      return sql`coalesce(${gbpConnections.status}, 'none') <> 'connected'`;
    case "no_manager":
      return isNull(clientSummaries.managerId);
    default:
      return undefined;
  }
}

/** The clients view: every client with its stored row, sorted and filtered in the database; `limit` rows from `offset`. */
export async function listClients(db: Db, p: ListArgs) {
  const [list] = await runReads(db, listClientsRead(db, p));
  return list;
}

type ListArgs = { sort: ClientSort; filter: ClientFilter; q?: string; managerId?: string | null; limit: number; offset: number };

/**
 * listClients's two queries (the page and the count), for a caller's batch. A batch answers rows keyed by column name,
 * so no two columns share one (the manager's id is the stored row's own `manager_id`).
 */
export function listClientsRead(db: Db, p: ListArgs) {
  const q = p.q?.trim().toLowerCase();
  const where = and(
    eq(profiles.isAdmin, false),
    filterWhere(p.filter),
    p.managerId ? eq(clientSummaries.managerId, p.managerId) : undefined,
    q ? sql`(lower(coalesce(${profiles.companyName}, '')) like ${`%${q.replace(/[%_]/g, "")}%`} or lower(${users.email}) like ${`%${q.replace(/[%_]/g, "")}%`})` : undefined,
  );
  const page = db
    .select({
      userId: profiles.id,
      email: users.email,
      name: profiles.companyName,
      managerEmail: sql<string | null>`${managers}`.as("manager_email"),
      plan: sql<string | null>`${planOf}`.as("plan"),
      google: sql<string | null>`${gbpConnections.status}`.as("google"),
      summary: clientSummaries,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.id))
    .leftJoin(clientSummaries, eq(clientSummaries.userId, profiles.id))
    .leftJoin(gbpConnections, eq(gbpConnections.userId, profiles.id))
    .where(where)
    .orderBy(...SORTS[p.sort], asc(profiles.id))
    .limit(p.limit)
    .offset(p.offset);
  const count = db
    .select({ n: sql<number>`count(*)` })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.id))
    .leftJoin(clientSummaries, eq(clientSummaries.userId, profiles.id))
    .leftJoin(gbpConnections, eq(gbpConnections.userId, profiles.id))
    .where(where);
  return batchedRead([page, count], ([rows, [total]]) => ({
    rows: rows.map((r): ListedClient => ({ ...r, managerId: r.summary?.managerId ?? null })),
    total: Number(total?.n ?? 0),
  }));
}

export async function isAdminUser(db: Db, userId: string): Promise<boolean> {
  const row = await db.select({ isAdmin: profiles.isAdmin }).from(profiles).where(eq(profiles.id, userId)).get();
  return row?.isAdmin === true;
}

export async function isClient(db: Db, userId: string): Promise<boolean> {
  const row = await db.select({ isAdmin: profiles.isAdmin }).from(profiles).where(eq(profiles.id, userId)).get();
  return row !== undefined && !row.isAdmin;
}

/** The selected clients (business accounts; admins are left out), with what a run needs of them: one read. */
export async function clientProfiles(db: Db, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return db.select().from(profiles).where(and(inArray(profiles.id, [...userIds]), eq(profiles.isAdmin, false)));
}

export async function setManager(db: Db, userId: string, managerId: string | null) {
  await db
    .insert(clientSummaries)
    .values({ userId, managerId })
    .onConflictDoUpdate({ target: clientSummaries.userId, set: { managerId, updatedAt: new Date().toISOString() } });
}

export function adminsListRead(db: Db) {
  return batchedRead([db.select({ id: users.id, email: users.email }).from(profiles).innerJoin(users, eq(users.id, profiles.id)).where(eq(profiles.isAdmin, true)).orderBy(asc(users.email)).limit(100)], ([rows]) => rows);
}

export async function viewSettings(db: Db, userId: string) {
  const [settings] = await runReads(db, viewSettingsRead(db, userId));
  return settings;
}

export function viewSettingsRead(db: Db, userId: string) {
  return batchedRead([db.select().from(agencyViewSettings).where(eq(agencyViewSettings.userId, userId)).limit(1)], ([[row]]) => ({
    hiddenColumns: JSON.parse(row?.hiddenColumns ?? "[]") as string[],
    views: JSON.parse(row?.views ?? "[]") as unknown[],
  }));
}

export async function saveViewSettings(db: Db, userId: string, s: { hiddenColumns: string[]; views: unknown[] }) {
  const values = { hiddenColumns: JSON.stringify(s.hiddenColumns), views: JSON.stringify(s.views), updatedAt: new Date().toISOString() };
  await db.insert(agencyViewSettings).values({ userId, ...values }).onConflictDoUpdate({ target: agencyViewSettings.userId, set: values });
}
