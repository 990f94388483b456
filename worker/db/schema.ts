// The single source of every table; `npm run db:generate` writes migrations/ from it.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { REPORT_STATUSES } from "../domain/report-status";

const id = () => text("id").primaryKey();
const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
const createdAt = () => text("created_at").notNull().default(nowIso);
const updatedAt = () => text("updated_at").notNull().default(nowIso);

export const users = sqliteTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    userMetadata: text("user_metadata").notNull().default("{}"),
    emailConfirmedAt: text("email_confirmed_at"),
    lastSignInAt: text("last_sign_in_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    refreshedAt: text("refreshed_at"),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: id(),
    tokenHash: text("token_hash").notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    parentHash: text("parent_hash"),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_unique").on(t.tokenHash),
    index("refresh_tokens_session_idx").on(t.sessionId),
  ],
);

export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    companyName: text("company_name"),
    companyWebsite: text("company_website"),
    companyPhone: text("company_phone"),
    companyLocation: text("company_location"),
    companyEmail: text("company_email"),
    companyCategory: text("company_category"),
    companyDescription: text("company_description"),
    companyLogoUrl: text("company_logo_url"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("profiles_created_idx").on(t.createdAt), index("profiles_admin_idx").on(t.isAdmin)],
);

export const prospects = sqliteTable(
  "prospects",
  {
    id: id(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    area: text("area").notNull(),
    keyword: text("keyword").notNull().default(""),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    tag: text("tag"),
    companyName: text("company_name").notNull().default(""),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Lower-cased concatenation of the eight searchable fields, kept by the app on every write. */
    searchText: text("search_text").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("prospects_created_idx").on(t.createdAt),
    index("prospects_name_phone_idx").on(t.name, t.phone),
    index("prospects_name_area_idx").on(t.name, t.area),
  ],
);

export const seoReports = sqliteTable(
  "seo_reports",
  {
    id: id(),
    prospectId: text("prospect_id")
      .notNull()
      .references(() => prospects.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    contentGenerated: integer("content_generated", { mode: "boolean" }).notNull().default(false),
    questions: text("questions").notNull().default(""),
    gmbArticles: text("gmb_articles"),
    blogStructures: text("blog_structures"),
    facebookPosts: text("facebook_posts"),
    seoPotential: real("seo_potential"),
    metaSeo: text("meta_seo"),
    perfectAd: text("perfect_ad"),
    /** Whole model answer's potential block: score, keyword_potential, business_relevance, competition. */
    potential: text("potential"),
    status: text("status", { enum: REPORT_STATUSES })
      .notNull()
      .default("draft"),
    source: text("source", { enum: ["ai", "template"] }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    claimedAt: text("claimed_at"),
    generatedAt: text("generated_at"),
    /** Bumped on every content change; part of the shared-report cache key and ETag. */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index("seo_reports_created_idx").on(t.createdAt),
    uniqueIndex("seo_reports_prospect_unique").on(t.prospectId),
    index("seo_reports_status_idx").on(t.status, t.claimedAt),
  ],
);

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: id(),
    reportId: text("report_id")
      .notNull()
      .references(() => seoReports.id, { onDelete: "cascade" }),
    userId: text("user_id"),
    role: text("role", { enum: ["system", "user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("chat_messages_report_idx").on(t.reportId, t.createdAt)],
);

export const aiUsageLogs = sqliteTable(
  "ai_usage_logs",
  {
    id: id(),
    eventId: text("event_id").notNull(),
    userId: text("user_id"),
    toolName: text("tool_name").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    totalTokens: integer("total_tokens").notNull().default(0),
    estimatedCost: real("estimated_cost").notNull().default(0),
    requestData: text("request_data"),
    responseData: text("response_data"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ai_usage_logs_event_unique").on(t.eventId),
    index("ai_usage_logs_user_idx").on(t.userId, t.createdAt),
  ],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    customerEmail: text("customer_email"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    status: text("status").notNull(),
    plan: text("plan"),
    currentPeriodEnd: text("current_period_end"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId)],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: id(),
    actorId: text("actor_id").notNull(),
    action: text("action").notNull(),
    targetId: text("target_id"),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_actor_idx").on(t.actorId, t.createdAt)],
);

export const outbox = sqliteTable(
  "outbox",
  {
    id: id(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_to_idx").on(t.toEmail, t.createdAt)],
);

/** One-time tokens for password recovery (hashed). */
export const recoveryTokens = sqliteTable(
  "recovery_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [index("recovery_tokens_user_idx").on(t.userId)],
);

/** Fixed-window counters for rate limits (failed sign-ins, sign-ups, public chat). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull().default(0),
});

/** One-time links that confirm a sign-up's email address (hashed); ADMIN_EMAILS grants admin only through one. */
export const emailConfirmations = sqliteTable(
  "email_confirmations",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The address the link was sent to: confirming it confirms only that address. */
    email: text("email").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [index("email_confirmations_user_idx").on(t.userId)],
);
