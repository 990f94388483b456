// Monthly client reports: who gets one, their recipients' consent, and the reports.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jobColumns } from "../../platform/jobs/columns";
import { id, createdAt, updatedAt } from "../../platform/db/columns";
import { userId, userIdKey } from "../../platform/auth/tables";

/**
 * Monthly client reports (issue 30): who gets one. A row per business user; absent means off. An admin switches it on
 * for a client, or the user for themselves (`enabled_by`). Recipients are mail addresses (JSON array); empty means the
 * account's own address.
 */
export const clientReportSettings = sqliteTable("client_report_settings", {
  userId: userIdKey(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  recipients: text("recipients").notNull().default("[]"),
  enabledBy: text("enabled_by", { enum: ["admin", "user"] }),
  updatedAt: updatedAt(),
});

/**
 * Consent of each address a client's monthly report goes to (issue 39): an address an admin set, or the account's
 * own, is `confirmed`; one a user added is `pending` until its owner opens the mailed confirmation link and confirms.
 * Only confirmed addresses get reports. `unsubscribe_token` is the link in every report mail (and List-Unsubscribe):
 * using it removes the address. The list itself stays `client_report_settings.recipients`.
 */
export const clientReportRecipients = sqliteTable(
  "client_report_recipients",
  {
    userId: userId(),
    email: text("email").notNull(),
    status: text("status", { enum: ["pending", "confirmed"] }).notNull().default("pending"),
    addedBy: text("added_by", { enum: ["admin", "user"] }).notNull(),
    confirmToken: text("confirm_token"),
    unsubscribeToken: text("unsubscribe_token").notNull(),
    confirmedAt: text("confirmed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.email] }),
    uniqueIndex("client_report_recipients_confirm_idx").on(t.confirmToken),
    uniqueIndex("client_report_recipients_unsubscribe_idx").on(t.unsubscribeToken),
  ],
);

/**
 * One client's report for one month. Built through the `client-reports` queue: queued → building (claimed by
 * compare-and-set, `claimed_at`) → ready | failed. The figures are frozen in `payload` (JSON, `ClientReportPayload` in
 * worker/features/client-reports/rules/client-report.ts) when built, so the page, the PDF and the mail show the same numbers. A rebuild bumps
 * `version` (part of the shared page's cache key). `share_token` is the unguessable link
 * (`/shared/client-reports/:token`). Mail is claimed by compare-and-set too (`mail_claimed_at`), so a report is mailed once.
 */
export const clientReports = sqliteTable(
  "client_reports",
  {
    id: id(),
    userId: userId(),
    /** "YYYY-MM": the month reported on. */
    month: text("month").notNull(),
    trigger: text("trigger", { enum: ["cron", "admin", "user"] }).notNull().default("cron"),
    ...jobColumns(["queued", "building", "ready", "failed"], "queued"),
    version: integer("version").notNull().default(1),
    shareToken: text("share_token").notNull(),
    payload: text("payload"),
    summarySource: text("summary_source", { enum: ["ai", "template"] }),
    /** Why the summary is the template (admin screens only). */
    summaryNote: text("summary_note"),
    pdfKey: text("pdf_key"),
    pdfBytes: integer("pdf_bytes"),
    /** Whether the built report should be mailed when ready (the cron's and "Send now"'s; a preview is not). */
    mailWhenReady: integer("mail_when_ready", { mode: "boolean" }).notNull().default(false),
    mailClaimedAt: text("mail_claimed_at"),
    sentAt: text("sent_at"),
    sentTo: text("sent_to"),
    firstOpenedAt: text("first_opened_at"),
    lastOpenedAt: text("last_opened_at"),
    views: integer("views").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    builtAt: text("built_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("client_reports_month_unique").on(t.userId, t.month),
    uniqueIndex("client_reports_token_unique").on(t.shareToken),
    index("client_reports_status_idx").on(t.status, t.claimedAt),
  ],
);
