// The business users as the client reports' screens read them: a report's summary (admin-only fields stripped for
// users), a client's settings with the addresses still waiting for their owner's confirmation, and the lists.
import type { Db } from "../../platform/db/client";
import { findUserById, getProfile } from "../../platform/auth/users";
import { zoneOf } from "./run";
import { pendingByUser, recipientRows } from "./recipient-queries";
import { businessUsersWithSettings, getClientReportSettings, lastClientReports, listClientReports, type ClientReportRow, type ClientReportSettingsRow } from "./queries";
import {
  clientReportPaths,
  monthLabel,
  nextRunAt,
  type ClientReportClientRow,
  type ClientReportListResponse,
  type ClientReportSettings,
  type ClientReportSummary,
} from "./rules/client-report";

function parseList(text: string | null): string[] {
  try {
    const v = text ? (JSON.parse(text) as unknown) : [];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function reportSummary(row: ClientReportRow, admin: boolean): ClientReportSummary {
  const built = row.status === "ready" || row.builtAt !== null;
  const paths = clientReportPaths(row.shareToken);
  return {
    id: row.id,
    userId: row.userId,
    month: row.month,
    monthLabel: monthLabel(row.month),
    status: row.status,
    version: row.version,
    trigger: row.trigger,
    builtAt: row.builtAt,
    sentAt: row.sentAt,
    sentTo: parseList(row.sentTo),
    firstOpenedAt: row.firstOpenedAt,
    views: row.views,
    shareUrl: built ? paths.shareUrl : null,
    pdfUrl: built ? paths.pdfUrl : null,
    ...(admin ? { summarySource: row.summarySource, summaryNote: row.summaryNote, error: row.error } : {}),
  };
}

export function settingsOf(userId: string, row: ClientReportSettingsRow | null, pending: string[]): ClientReportSettings {
  const recipients = parseList(row?.recipients ?? null);
  return { userId, enabled: row?.enabled ?? false, recipients, pending: recipients.filter((a) => pending.includes(a)), enabledBy: row?.enabledBy ?? null };
}

/** The addresses of a client still waiting for their owner's confirmation. */
export const pendingOf = async (db: Db, userId: string) => (await recipientRows(db, userId)).filter((r) => r.status === "pending").map((r) => r.email);

/** A business user (not an admin) by id, or null. */
export async function businessUser(db: Db, userId: string) {
  const [user, profile] = await Promise.all([findUserById(db, userId), getProfile(db, userId)]);
  if (!user || profile?.isAdmin) return null;
  return { user, profile };
}

/** One client's settings and reports (`admin`: with the admin-only fields). */
export async function clientReportsOf(db: Db, userId: string, admin: boolean): Promise<ClientReportListResponse> {
  const [settings, reports, pending] = await Promise.all([getClientReportSettings(db, userId), listClientReports(db, userId), pendingOf(db, userId)]);
  return { role: "user", settings: settingsOf(userId, settings, pending), reports: reports.map((r) => reportSummary(r, admin)) };
}

/** Every business user (the admin's list): on or off, where it is mailed, the last report and the next run. */
export async function clientList(db: Db, now = new Date()): Promise<ClientReportListResponse> {
  const rows = await businessUsersWithSettings(db);
  const last = await lastClientReports(
    db,
    rows.map((r) => r.userId),
  );
  const pending = await pendingByUser(db);
  const clients: ClientReportClientRow[] = rows.map((r) => {
    const zone = zoneOf(r.timeZone);
    const report = last.get(r.userId);
    return {
      userId: r.userId,
      email: r.email,
      businessName: r.businessName,
      timeZone: zone,
      settings: settingsOf(r.userId, r.settings, pending.get(r.userId) ?? []),
      lastReport: report ? reportSummary(report, true) : null,
      nextRunAt: r.settings?.enabled ? nextRunAt(now, zone) : null,
    };
  });
  return { role: "admin", clients };
}
