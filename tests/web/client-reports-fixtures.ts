// Answers of /api/client-reports as the contract (worker/features/client-reports/rules/client-report.ts) types them, for the screens' tests.
import type { ClientReportClientRow, ClientReportListResponse, ClientReportSettings, ClientReportSummary } from "../../worker/features/client-reports/rules/client-report";
import { json } from "./helpers";

export function report(over: Partial<ClientReportSummary> = {}): ClientReportSummary {
  return {
    id: "rep-oct",
    userId: "user-ridge",
    month: "2026-10",
    monthLabel: "October 2026",
    status: "ready",
    version: 1,
    trigger: "cron",
    builtAt: "2026-11-01T13:05:00.000Z",
    sentAt: "2026-11-01T14:00:00.000Z",
    sentTo: ["owner@ridgeline.test"],
    firstOpenedAt: "2026-11-02T15:30:00.000Z",
    views: 3,
    shareUrl: "/shared/client-reports/tok-oct",
    pdfUrl: "/shared/client-reports/tok-oct.pdf",
    summarySource: "ai",
    summaryNote: null,
    error: null,
    ...over,
  };
}

export function settings(over: Partial<ClientReportSettings> = {}): ClientReportSettings {
  return { userId: "user-ridge", enabled: true, recipients: [], pending: [], enabledBy: "admin", ...over };
}

export function client(over: Partial<ClientReportClientRow> = {}): ClientReportClientRow {
  return {
    userId: "user-ridge",
    email: "owner@ridgeline.test",
    businessName: "Ridgeline Roofing",
    timeZone: "America/Chicago",
    settings: settings(),
    lastReport: report(),
    nextRunAt: "2026-12-01T06:00:00.000Z",
    ...over,
  };
}

export const adminList = (clients: ClientReportClientRow[]): ClientReportListResponse => ({ role: "admin", clients });
export const userList = (reports: ClientReportSummary[], s = settings({ userId: "user-1", enabledBy: "user" })): ClientReportListResponse => ({ role: "user", settings: s, reports });

/** What the rest of the shell asks for: the bell, the profile, and the newest report for the sidebar's AI Chat link. */
export const others = (url: string) =>
  url.startsWith("/api/notifications") ? json({ notifications: [], unread: 0, nextCursor: null }) : json({ reports: [] });
