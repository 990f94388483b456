// The clients view's answer: the stored rows of one page with their health mark, the admins to pick a manager from,
// the admin's own view settings; and the same rows as CSV (every client the filters keep, one line each).
import type { Db } from "../../platform/db/client";
import { toCsv } from "../../domain/csv";
import { adminsListRead, listClients, listClientsRead, viewSettingsRead, type ListedClient } from "./client-queries";
import { runReads } from "../../platform/db/batched-read";
import { HEALTH_LEVELS, HEALTH_LABELS, healthText } from "./rules/health";
import { CLIENTS_PAGE_SIZE, type ClientRow, type ClientsQuery, type ClientsResponse, type ViewSettings } from "./rules/clients";

const parse = <T>(json: string | null | undefined): T | null => (json ? (JSON.parse(json) as T) : null);

function rowOf(c: ListedClient): ClientRow {
  const s = c.summary;
  const level = HEALTH_LEVELS[s?.health ?? 0] ?? "fine";
  const reasons = JSON.parse(s?.healthReasons ?? "[]") as string[];
  return {
    userId: c.userId,
    name: c.name?.trim() || c.email,
    email: c.email,
    plan: c.plan,
    manager: c.managerId && c.managerEmail ? { id: c.managerId, email: c.managerEmail } : null,
    google: (c.google as ClientRow["google"] | null) ?? "none",
    health: { level, text: healthText({ level, reasons }), reasons },
    reviews: parse(s?.reviews),
    rank: parse(s?.rank),
    citations: parse(s?.citations),
    ai: parse(s?.ai),
    posts: parse(s?.posts),
    report: parse(s?.report),
    usage: parse(s?.usage),
    updatedAt: s?.updatedAt ?? null,
  };
}

function listArgs(q: ClientsQuery, adminId: string) {
  return { sort: q.sort ?? "health", filter: q.filter ?? "all", q: q.q, managerId: q.manager === "me" ? adminId : q.manager || null } as const;
}

export async function clientsPage(db: Db, q: ClientsQuery, adminId: string): Promise<ClientsResponse> {
  const page = q.page ?? 1;
  // The page, its count, the admins and the caller's view settings: one D1 round trip.
  const [list, admins, settings] = await runReads(
    db,
    listClientsRead(db, { ...listArgs(q, adminId), limit: CLIENTS_PAGE_SIZE, offset: (page - 1) * CLIENTS_PAGE_SIZE }),
    adminsListRead(db),
    viewSettingsRead(db, adminId),
  );
  return { clients: list.rows.map(rowOf), total: list.total, page, pageSize: CLIENTS_PAGE_SIZE, admins, settings: settings as ViewSettings };
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 1000) / 10);
const dollars = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : cents / 100);

/** Every client the filters keep, as a spreadsheet: one line each, figures as numbers (rates in percent, money in dollars). */
export async function clientsCsv(db: Db, q: ClientsQuery, adminId: string): Promise<{ text: string; filename: string }> {
  const { rows } = await listClients(db, { ...listArgs(q, adminId), limit: 5000, offset: 0 });
  const header = ["Client", "Email", "Plan", "Manager", "Google", "Health", "Why", "Reviews this month", "Average rating", "Unanswered", "Low unanswered", "Reply rate %", "SoLV %", "ATRP", "SoLV change", "Citation score", "Wrong listings", "Citation gaps", "AI mention rate %", "Last post published", "Failed posts", "Last report", "Report sent", "Report opened", "AI spend $", "Allowance $"];
  const lines = rows.map(rowOf).map((c) => [
    c.name, c.email, c.plan, c.manager?.email ?? null, c.google, HEALTH_LABELS[c.health.level], c.health.reasons.join("; "),
    c.reviews?.newThisMonth, c.reviews?.average, c.reviews?.unanswered, c.reviews?.lowUnanswered, pct(c.reviews?.replyRate),
    c.rank?.solv, c.rank?.atrp, c.rank?.solvChange, c.citations?.score, c.citations?.wrong, c.citations?.gaps, pct(c.ai?.mentionRate),
    c.posts?.lastPublishedAt, c.posts?.failed, c.report?.month, c.report?.sentAt, c.report?.openedAt,
    dollars(c.usage?.spentCents), dollars(c.usage?.allowanceCents),
  ]);
  return { text: toCsv([header, ...lines]), filename: `clients-${new Date().toISOString().slice(0, 10)}.csv` };
}
