// Widgets: the embeddable free-audit forms and their leads.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, createdAt, timestamps, belongsTo } from "../../platform/db/columns";
import { prospects } from "../prospects/tables";
import { users } from "../../platform/auth/tables";

/**
 * Embeddable free-audit widgets (issue 21): an admin's form for the agency's own website. The logo is an R2 key
 * (like profile logos); origins is a JSON array of the sites allowed to embed it (CORS and frame-ancestors).
 */
export const widgets = sqliteTable(
  "widgets",
  {
    id: id(),
    ownerId: belongsTo("owner_id", () => users.id),
    name: text("name").notNull(),
    accent: text("accent").notNull(),
    logoUrl: text("logo_url"),
    askWebsite: integer("ask_website", { mode: "boolean" }).notNull().default(true),
    askPhone: integer("ask_phone", { mode: "boolean" }).notNull().default(false),
    consentText: text("consent_text").notNull().default(""),
    /** JSON array of origins (`https://www.example.com`). */
    origins: text("origins").notNull().default("[]"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** What the widget's leads may spend a UTC day (audits and reports, counted by the meter), in cents (issue 26). */
    dailyCapCents: integer("daily_cap_cents").notNull().default(200),
    ...timestamps(),
  },
  (t) => [index("widgets_owner_idx").on(t.ownerId, t.createdAt)],
);

/**
 * One visitor's submission through a widget: its prospect, report and audit, where it is (`waiting_allowance` until
 * the owner's allowance has room: the cron retries), and `mailed_at`, set once by compare-and-set (one mail a lead).
 */
export const widgetLeads = sqliteTable(
  "widget_leads",
  {
    id: id(),
    widgetId: belongsTo("widget_id", () => widgets.id),
    prospectId: belongsTo("prospect_id", () => prospects.id),
    reportId: text("report_id").notNull(),
    auditId: text("audit_id"),
    status: text("status", { enum: ["running", "waiting_allowance", "ready", "failed"] }).notNull(),
    visitorEmail: text("visitor_email").notNull(),
    /** The client's address as the rate limits key it (IPv6 per /64). */
    addressKey: text("address_key").notNull(),
    /** Set while the lead waits for its owner's allowance; the cron starts it once there is room. */
    queuedForAllowance: integer("queued_for_allowance", { mode: "boolean" }).notNull().default(false),
    mailedAt: text("mailed_at"),
    /** What became of the visitor's mail once claimed: sent, or not sent because the address had its mail today (issue 26). */
    mailOutcome: text("mail_outcome", { enum: ["sent", "limited"] }),
    createdAt: createdAt(),
  },
  (t) => [
    index("widget_leads_widget_idx").on(t.widgetId, t.createdAt),
    index("widget_leads_status_idx").on(t.status, t.createdAt),
    index("widget_leads_report_idx").on(t.reportId),
  ],
);
