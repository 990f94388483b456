// The single source of every table; `npm run db:generate` writes migrations/ from it.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { REPORT_STATUSES } from "../../features/reports/rules/status";

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
    /** Set on a session opened by a recovery link: it may set a new password once without the current one. */
    passwordResetAt: text("password_reset_at"),
    /** How the session signed in first: "password" or "recovery" (the token's amr). */
    authMethod: text("auth_method").notNull().default("password"),
    /** When a TOTP code was verified in this session: from then on it is aal2. */
    mfaVerifiedAt: text("mfa_verified_at"),
    /** How the second step was made: "totp", or "recovery_code" (a one-time recovery code); null before it. */
    mfaMethod: text("mfa_method", { enum: ["totp", "recovery_code"] }),
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
    /** Street address (issue 26): the audit matches the Google listing by it. */
    companyStreetAddress: text("company_street_address"),
    companyEmail: text("company_email"),
    companyCategory: text("company_category"),
    companyDescription: text("company_description"),
    companyLogoUrl: text("company_logo_url"),
    /** The business's IANA time zone ("America/Chicago"): times shown to it use it, stored times stay UTC. */
    timeZone: text("time_zone"),
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
    /** The prospect's website (optional; the audit reads it, else the Google listing's). */
    website: text("website"),
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
    /** The public conversation (chat_sessions.id) this turn belongs to. */
    sessionId: text("session_id"),
  },
  (t) => [
    index("chat_messages_report_idx").on(t.reportId, t.createdAt),
    index("chat_messages_session_idx").on(t.sessionId, t.createdAt),
  ],
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
    /** True when the token counts are the length / 4 estimate because the provider sent no usage. */
    tokensEstimated: integer("tokens_estimated", { mode: "boolean" }).notNull().default(false),
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
    /** "month" or "year". */
    interval: text("interval"),
    /** `created` (Unix seconds) of the newest Stripe event applied: an older event never overwrites the state. */
    stateEventCreated: integer("state_event_created").notNull().default(0),
  },
  (t) => [
    index("subscriptions_user_idx").on(t.userId),
    uniqueIndex("subscriptions_stripe_subscription_unique").on(t.stripeSubscriptionId),
  ],
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

export const MAIL_STATUSES = ["kept", "queued", "sent", "failed"] as const;

/**
 * Every message the app sends. Without a mail provider it stays here ("kept"); with one it is
 * "queued" on mail-out and ends "sent" or "failed" (a permanent refusal, with its reason). Its
 * one-time links are redacted once it has left (or at once outside local development when kept).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: id(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    /** The plain-text part. */
    body: text("body").notNull(),
    /** The HTML part (null for mail kept before it existed). */
    html: text("html"),
    /** The template: confirm_signup, reset_password, email_change … */
    kind: text("kind"),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("kept"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    sentAt: text("sent_at"),
    /** One message per key at most: a send retried after a crash skips the recipients it reached (null: no key). */
    dedupeKey: text("dedupe_key"),
    /** Extra message headers as JSON (List-Unsubscribe on report mail); null: none. */
    headers: text("headers"),
    createdAt: createdAt(),
  },
  (t) => [
    index("outbox_to_idx").on(t.toEmail, t.createdAt),
    index("outbox_status_idx").on(t.status, t.createdAt),
    uniqueIndex("outbox_dedupe_key_idx").on(t.dedupeKey),
  ],
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

/** Facebook posts a user generated (spec part 1 §3 "Generated post"), newest first in "Recent posts". */
export const generatedPosts = sqliteTable(
  "generated_posts",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: text("content").notNull(),
    /** JSON array of hashtags. */
    tags: text("tags").notNull().default("[]"),
    imagePrompt: text("image_prompt").notNull().default(""),
    image: text("image").notNull().default(""),
    postType: text("post_type").notNull(),
    tone: text("tone").notNull(),
    length: text("length").notNull(),
    /** What the user asked for (the description box). */
    request: text("request").notNull().default(""),
    source: text("source", { enum: ["ai", "template"] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("generated_posts_user_idx").on(t.userId, t.createdAt)],
);

/**
 * One kept result of a content tool (issue 20: GMB posts, social posts, video scripts, social plans), shown as
 * 'Recent' under its tool. `input` and `result` are the tool's JSON; `feed_token_hash` is the SHA-256 of a social
 * plan's calendar subscription token (the token itself is only ever in the URL the user was given).
 */
export const contentItems = sqliteTable(
  "content_items",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    title: text("title").notNull(),
    input: text("input").notNull().default("{}"),
    result: text("result").notNull(),
    source: text("source", { enum: ["ai", "template"] }).notNull(),
    notice: text("notice"),
    /** JSON array of the length rules applied after generation. */
    notes: text("notes").notNull().default("[]"),
    feedTokenHash: text("feed_token_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("content_items_user_tool_idx").on(t.userId, t.tool, t.createdAt),
    uniqueIndex("content_items_feed_token_unique").on(t.feedTokenHash),
  ],
);

/** A user's monthly AI budget in US dollars, set by an admin; no row means no limit. */
export const aiBudgets = sqliteTable("ai_budgets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  monthlyUsd: real("monthly_usd").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: updatedAt(),
});

/**
 * Daily roll-up of ai_usage_logs per user, tool and model, kept by a trigger on every inserted log row
 * (migrations/0004_usage_rollup_trigger.sql), so GET /api/usage sums a few hundred rows, not every call.
 * `user_key` is the user id, or '' for calls without a user.
 */
export const aiUsageDaily = sqliteTable(
  "ai_usage_daily",
  {
    userKey: text("user_key").notNull(),
    day: text("day").notNull(),
    toolName: text("tool_name").notNull(),
    model: text("model").notNull(),
    count: integer("count").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    cost: real("cost").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userKey, t.day, t.toolName, t.model] }),
    index("ai_usage_daily_day_idx").on(t.day),
  ],
);

/** One visitor's conversation on a shared chat link: the transcript's head and the lead it yields. */
export const chatSessions = sqliteTable(
  "chat_sessions",
  {
    id: id(),
    reportId: text("report_id")
      .notNull()
      .references(() => seoReports.id, { onDelete: "cascade" }),
    /** The id the visitor's page made for this conversation. */
    visitorId: text("visitor_id").notNull(),
    startedAt: createdAt(),
    lastMessageAt: text("last_message_at").notNull(),
    messageCount: integer("message_count").notNull().default(0),
    /** Answers the assistant has given; the lead question comes after LEAD_ASK_AFTER_ANSWERS. */
    answerCount: integer("answer_count").notNull().default(0),
    leadAskedAt: text("lead_asked_at"),
    leadName: text("lead_name"),
    leadPhone: text("lead_phone"),
    leadEmail: text("lead_email"),
  },
  (t) => [
    uniqueIndex("chat_sessions_report_visitor_unique").on(t.reportId, t.visitorId),
    index("chat_sessions_report_last_idx").on(t.reportId, t.lastMessageAt),
  ],
);

/** Web search answers (Google Search Results tool), kept 24 hours per normalised keyword + location. */
export const searchCache = sqliteTable(
  "search_cache",
  {
    key: text("key").primaryKey(),
    keyword: text("keyword").notNull(),
    location: text("location").notNull(),
    results: text("results").notNull(),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [index("search_cache_fetched_idx").on(t.fetchedAt)],
);

/** Stripe webhook events already handled (each event id once). */
export const billingEvents = sqliteTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** The event's own `created` (Unix seconds). */
  eventCreated: integer("event_created").notNull(),
  receivedAt: text("received_at").notNull().default(nowIso),
});

/** View tracking of shared reports (issue 10): one row per (visit, event, section), so a repeat beacon is ignored. */
export const reportEvents = sqliteTable(
  "report_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    reportId: text("report_id")
      .notNull()
      .references(() => seoReports.id, { onDelete: "cascade" }),
    visitId: text("visit_id").notNull(),
    event: text("event", { enum: ["opened", "section_viewed", "print", "chat_started"] }).notNull(),
    /** The section id for section_viewed, '' otherwise (so the unique index de-duplicates every event). */
    section: text("section").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("report_events_visit_unique").on(t.reportId, t.visitId, t.event, t.section),
    index("report_events_report_idx").on(t.reportId, t.createdAt),
  ],
);

/** Per-report open counts, kept by a trigger on report_events (migration report_view_stats_trigger). */
export const reportViewStats = sqliteTable(
  "report_view_stats",
  {
    reportId: text("report_id")
      .primaryKey()
      .references(() => seoReports.id, { onDelete: "cascade" }),
    opens: integer("opens").notNull().default(0),
    firstOpenedAt: text("first_opened_at"),
    lastOpenedAt: text("last_opened_at"),
  },
  (t) => [index("report_view_stats_last_idx").on(t.lastOpenedAt)],
);

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
    /** "signup" confirms the address the user has; "email_change" makes `email` the user's address. */
    kind: text("kind", { enum: ["signup", "email_change"] }).notNull().default("signup"),
  },
  (t) => [index("email_confirmations_user_idx").on(t.userId)],
);

/**
 * The meter's counters: one row per cap and period (the period is in the key: `user:<id>:2026-11`,
 * `report:<id>:2026-11-23`, `address:<ip or /64>:2026-11-23T22`, `global:2026-11-23`), in millionths of a dollar.
 * A reservation adds to `reserved`; settling moves it to `settled` at the real figure; a release takes it back.
 */
export const meterCounters = sqliteTable(
  "meter_counters",
  {
    key: text("key").primaryKey(),
    reservedMicro: integer("reserved_micro").notNull().default(0),
    settledMicro: integer("settled_micro").notNull().default(0),
    /** The end of the key's period; the cron deletes rows a while after it. */
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("meter_counters_expires_idx").on(t.expiresAt)],
);

/** Reservations not settled or released yet, so a call whose worker died is given back by the cron sweep. */
export const meterReservations = sqliteTable(
  "meter_reservations",
  {
    id: id(),
    /** JSON array of the meter_counters keys it was added to. */
    keys: text("keys").notNull(),
    amountMicro: integer("amount_micro").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("meter_reservations_created_idx").on(t.createdAt)],
);

/** TOTP factors (GoTrue's `factors`): the secret is AES-GCM encrypted with a key derived from ENCRYPTION_KEY. */
export const mfaFactors = sqliteTable(
  "mfa_factors",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    friendlyName: text("friendly_name"),
    factorType: text("factor_type", { enum: ["totp"] }).notNull().default("totp"),
    status: text("status", { enum: ["unverified", "verified"] }).notNull().default("unverified"),
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** The TOTP time step of the last code accepted: a code is never accepted twice. */
    lastUsedStep: integer("last_used_step"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("mfa_factors_user_idx").on(t.userId)],
);

/**
 * One-time recovery codes for two-factor sign-in (issue 26): shown once, stored as a keyed hash (HMAC-SHA256 with a
 * key derived from JWT_SECRET, of the user id and the code), each used once (`used_at`, set by compare-and-set).
 */
export const mfaRecoveryCodes = sqliteTable(
  "mfa_recovery_codes",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: text("used_at"),
    /** The session the code raised to aal2. */
    usedBySession: text("used_by_session"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("mfa_recovery_codes_user_hash_unique").on(t.userId, t.codeHash)],
);

/** A challenge of a factor (GoTrue's `challenges`): valid for five minutes, verified once. */
export const mfaChallenges = sqliteTable(
  "mfa_challenges",
  {
    id: id(),
    factorId: text("factor_id")
      .notNull()
      .references(() => mfaFactors.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    createdAt: createdAt(),
    verifiedAt: text("verified_at"),
  },
  (t) => [index("mfa_challenges_factor_idx").on(t.factorId)],
);

/** A user's Google Business Profile connection (issue 20): tokens sealed with ENCRYPTION_KEY, the locations they chose. */
export const GBP_CONNECTION_STATUSES = ["choosing", "connected", "needs_reconnect"] as const;
export const gbpConnections = sqliteTable("gbp_connections", {
  id: id(),
  userId: text("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  status: text("status", { enum: GBP_CONNECTION_STATUSES }).notNull().default("choosing"),
  /** Sealed (worker/platform/crypto/secret-box.ts, purpose "google-token", context = row id + kind). */
  accessTokenCiphertext: text("access_token_ciphertext"),
  refreshTokenCiphertext: text("refresh_token_ciphertext"),
  accessExpiresAt: text("access_expires_at"),
  /** JSON: every location Google listed at the last sync ({name, title, address, canOperateLocalPost}). */
  availableLocations: text("available_locations").notNull().default("[]"),
  /** JSON: the locations the user chose to post to (the same shape). */
  chosenLocations: text("chosen_locations").notNull().default("[]"),
  lastSyncAt: text("last_sync_at"),
  /** Google's last refusal in plain words, and its kind (api_not_enabled, not_approved, token_refused …). */
  lastError: text("last_error"),
  lastErrorCode: text("last_error_code"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** An OAuth start: state and PKCE verifier kept server-side for ten minutes, used once, bound to the starting browser. */
export const oauthStates = sqliteTable(
  "oauth_states",
  {
    /** SHA-256 of the state parameter (the state itself only travels through the browser). */
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    /** SHA-256 of the nonce in the starting browser's HttpOnly cookie (issue 26); the callback requires the same cookie. */
    browserHash: text("browser_hash"),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_states_user_idx").on(t.userId)],
);

/** A Google Business Profile post placed on the scheduler's calendar, and what became of it. */
export const SCHEDULED_POST_STATES = ["scheduled", "publishing", "processing", "live", "rejected", "failed", "reminded"] as const;
export const scheduledPosts = sqliteTable(
  "scheduled_posts",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** JSON: a GmbPost (worker/features/content/rules/gmb-post.ts). */
    body: text("body").notNull(),
    /** When to publish, ISO UTC; `timezone` is the IANA zone it was chosen in (for showing it). */
    scheduledAt: text("scheduled_at").notNull(),
    timezone: text("timezone").notNull(),
    /** `accounts/{a}/locations/{l}` and its title; null when placed without a connection (a reminder). */
    locationName: text("location_name"),
    locationTitle: text("location_title"),
    /** The generator's history item it came from, if any. */
    contentId: text("content_id"),
    state: text("state", { enum: SCHEDULED_POST_STATES }).notNull().default("scheduled"),
    googlePostName: text("google_post_name"),
    googleSearchUrl: text("google_search_url"),
    /** Why it was rejected or failed, or why it is waiting (Google's words where it gave some). */
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    /** The publisher does not look at it again before this time (backoff, reconciliation). */
    nextAttemptAt: text("next_attempt_at"),
    claimedAt: text("claimed_at"),
    publishedAt: text("published_at"),
    remindedAt: text("reminded_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("scheduled_posts_user_idx").on(t.userId, t.scheduledAt), index("scheduled_posts_due_idx").on(t.state, t.scheduledAt)],
);

/**
 * Local-SEO audits (issue 18): one business (a prospect, or a user's own business profile) at one time. The subject
 * is what was searched for (JSON, kept as it was then); each step's result lives in audit_steps, and the checks and
 * score are computed from those when read (`overall` is kept for the history list).
 */
export const audits = sqliteTable(
  "audits",
  {
    id: id(),
    kind: text("kind", { enum: ["prospect", "own"] }).notNull(),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    /** The owner for an own-business audit; the admin who started it for a prospect's. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** JSON: name, website, keyword, area, phone, address. */
    subject: text("subject").notNull(),
    status: text("status", { enum: ["queued", "running", "done"] }).notNull().default("queued"),
    overall: integer("overall"),
    /** JSON {placeId} or {mapsUrl}: the listing an admin picked from the candidates. */
    listingChoice: text("listing_choice"),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("audits_prospect_idx").on(t.prospectId, t.createdAt), index("audits_user_idx").on(t.userId, t.kind, t.createdAt)],
);

/** One step of an audit: claimed once (compare-and-set), its result stored as soon as it finishes. */
export const auditSteps = sqliteTable(
  "audit_steps",
  {
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id, { onDelete: "cascade" }),
    step: text("step", { enum: ["find", "fetch", "speed", "rank"] }).notNull(),
    status: text("status", { enum: ["pending", "running", "done", "failed", "skipped"] }).notNull().default("pending"),
    reason: text("reason"),
    /** JSON: the step's result (see worker/features/audits/steps.ts). */
    result: text("result"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: text("claimed_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [primaryKey({ columns: [t.auditId, t.step] })],
);

/**
 * The chats' system-prompt block of a finished audit (issue 26), written once from its steps: a chat message reads
 * this one row instead of the audit's steps. Valid while `auditFinishedAt` is the audit's `finished_at` (a re-run
 * of steps clears that, and sets a new one when it is done again).
 */
export const auditChatBlocks = sqliteTable("audit_chat_blocks", {
  auditId: text("audit_id")
    .primaryKey()
    .references(() => audits.id, { onDelete: "cascade" }),
  auditFinishedAt: text("audit_finished_at").notNull(),
  block: text("block").notNull(),
});

/**
 * Local Search Grid scans (issue 19): one business (the user's own, or a prospect) and one keyword searched from a
 * square of points. The business as it was searched (name, area, place id, centre) is kept as JSON; each point lives
 * in grid_points. `share_token` is 128 random bits (hex) for the public page; `version` changes whenever a point
 * lands, so the shared page's cache key moves with it.
 */
export const gridScans = sqliteTable(
  "grid_scans",
  {
    id: id(),
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    /** The owner for an own-business scan; the admin who ran it for a prospect's. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    /** JSON RankBusiness (worker/features/rank/rules/view.ts). */
    business: text("business").notNull(),
    keyword: text("keyword").notNull(),
    size: integer("size").notNull(),
    radiusMiles: real("radius_miles").notNull(),
    zoom: integer("zoom").notNull(),
    status: text("status", { enum: ["queued", "running", "done"] }).notNull().default("queued"),
    estimateSearches: integer("estimate_searches").notNull(),
    estimateMicro: integer("estimate_micro").notNull(),
    shareToken: text("share_token").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    uniqueIndex("grid_scans_share_token_unique").on(t.shareToken),
    index("grid_scans_user_idx").on(t.userId, t.kind, t.keyword, t.createdAt),
    index("grid_scans_prospect_idx").on(t.prospectId, t.keyword, t.createdAt),
  ],
);

/**
 * One point of a scan: claimed once per delivery (compare-and-set), its result stored as soon as its search
 * answers. `retrying` and `failed` both show as failed (never as "not ranked"); `retrying` goes out again.
 * `rank` is null for a completed search without the business in the top 20. `top3` keeps the top three listings
 * (place id, title, position) the competitors are counted from.
 */
export const gridPoints = sqliteTable(
  "grid_points",
  {
    scanId: text("scan_id")
      .notNull()
      .references(() => gridScans.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    row: integer("row").notNull(),
    col: integer("col").notNull(),
    lat: real("lat").notNull(),
    lng: real("lng").notNull(),
    status: text("status", { enum: ["pending", "running", "retrying", "done", "failed"] }).notNull().default("pending"),
    rank: integer("rank"),
    /** JSON [{position, place_id, title}] of the top three listings. */
    top3: text("top3"),
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: text("claimed_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [primaryKey({ columns: [t.scanId, t.idx] }), index("grid_points_status_idx").on(t.status, t.claimedAt)],
);

/**
 * Tracked keywords (the Local Rank Tracker): one business and keyword, checked daily or weekly by the cron.
 * `owner_key` ("own:<userId>" or "prospect:<id>") keeps one row per business and keyword. `last_check_at` is when
 * its last check was enqueued: the cron moves it by compare-and-set before sending, so a period enqueues once.
 */
export const trackedKeywords = sqliteTable(
  "tracked_keywords",
  {
    id: id(),
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    ownerKey: text("owner_key").notNull(),
    /** JSON RankBusiness. */
    business: text("business").notNull(),
    /** The website the organic position is looked up by; null: organic is "not in the top 20". */
    website: text("website"),
    keyword: text("keyword").notNull(),
    frequency: text("frequency", { enum: ["daily", "weekly"] }).notNull().default("daily"),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    lastCheckAt: text("last_check_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("tracked_keywords_owner_keyword_unique").on(t.ownerKey, t.keyword),
    index("tracked_keywords_user_idx").on(t.userId, t.kind, t.createdAt),
    index("tracked_keywords_due_idx").on(t.paused, t.lastCheckAt),
  ],
);

/**
 * One check of a tracked keyword: the map pack and the organic position, each stored as soon as its search answers
 * (`*_status` pending | found | not_found | failed), so a retried check never searches a part twice.
 */
export const keywordChecks = sqliteTable(
  "keyword_checks",
  {
    id: id(),
    keywordId: text("keyword_id")
      .notNull()
      .references(() => trackedKeywords.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "running", "retrying", "done", "failed"] }).notNull().default("pending"),
    mapStatus: text("map_status", { enum: ["pending", "found", "not_found", "failed"] }).notNull().default("pending"),
    mapRank: integer("map_rank"),
    organicStatus: text("organic_status", { enum: ["pending", "found", "not_found", "failed"] }).notNull().default("pending"),
    organicRank: integer("organic_rank"),
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: text("claimed_at"),
    createdAt: createdAt(),
    checkedAt: text("checked_at"),
  },
  (t) => [index("keyword_checks_keyword_idx").on(t.keywordId, t.createdAt), index("keyword_checks_status_idx").on(t.status, t.claimedAt)],
);

/** A check that is an alert (a drop of 3+ positions, or leaving the top 3), for the dashboard and the daily digest. */
export const rankAlerts = sqliteTable(
  "rank_alerts",
  {
    checkId: text("check_id")
      .primaryKey()
      .references(() => keywordChecks.id, { onDelete: "cascade" }),
    keywordId: text("keyword_id")
      .notNull()
      .references(() => trackedKeywords.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** JSON AlertReason[]. */
    reasons: text("reasons").notNull(),
    /** Map-pack positions before and after (null: not in the top 20). */
    fromRank: integer("from_rank"),
    toRank: integer("to_rank"),
    createdAt: createdAt(),
    mailedAt: text("mailed_at"),
  },
  (t) => [index("rank_alerts_user_idx").on(t.userId, t.mailedAt)],
);

/** One alert digest per user and UTC day: the row is the claim, so two cron runs never mail twice. */
export const rankAlertDigests = sqliteTable(
  "rank_alert_digests",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * Embeddable free-audit widgets (issue 21): an admin's form for the agency's own website. The logo is an R2 key
 * (like profile logos); origins is a JSON array of the sites allowed to embed it (CORS and frame-ancestors).
 */
export const widgets = sqliteTable(
  "widgets",
  {
    id: id(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
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
    widgetId: text("widget_id")
      .notNull()
      .references(() => widgets.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id")
      .notNull()
      .references(() => prospects.id, { onDelete: "cascade" }),
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

/** Alerts to the agency (issue 21): one row per (user, event), so the same event twice alerts once. */
export const NOTIFICATION_MAIL_STATES = ["none", "pending", "sent"] as const;
export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** An alert kind (worker/platform/notifications/rules/lead-events.ts) or webhook_paused. */
    kind: text("kind").notNull(),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    reportId: text("report_id"),
    /** The event's own fields (JSON), as the emitter handed them. */
    data: text("data").notNull().default("{}"),
    dedupeKey: text("dedupe_key").notNull(),
    /** Shown in the bell (false when the user turned the in-app channel off for this kind: mail only). */
    inApp: integer("in_app", { mode: "boolean" }).notNull().default(true),
    /** none: not mailed; pending: waits for the mail (at once or in the next digest); sent. */
    mailState: text("mail_state", { enum: NOTIFICATION_MAIL_STATES }).notNull().default("none"),
    mailedAt: text("mailed_at"),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notifications_dedupe_unique").on(t.userId, t.dedupeKey),
    index("notifications_user_idx").on(t.userId, t.inApp, t.createdAt),
    index("notifications_mail_idx").on(t.mailState, t.userId),
  ],
);

/** Per user and alert kind: in the app, by mail (absent row: both on). */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    inApp: integer("in_app", { mode: "boolean" }).notNull().default(true),
    byMail: integer("by_mail", { mode: "boolean" }).notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

export const WEBHOOK_ENDPOINT_STATUSES = ["active", "paused"] as const;
/** Outgoing webhook endpoints (issue 21): the signing secret sealed with ENCRYPTION_KEY. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: id(),
    /** The admin who added it: alerted when it is paused. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** JSON array of webhook event names. */
    events: text("events").notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    status: text("status", { enum: WEBHOOK_ENDPOINT_STATUSES }).notNull().default("active"),
    /** The first failure since the last success (null while it succeeds). */
    failingSince: text("failing_since"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: text("last_attempt_at"),
    pausedAt: text("paused_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_status_idx").on(t.status)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "sending", "retrying", "succeeded", "failed"] as const;
/** One event to one endpoint; its id is the Porchlight-Delivery header, its idempotency key keeps an event from being queued twice. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The event's id (the body's `id`): a replay sends the same event again. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** The JSON body exactly as signed and sent. */
    body: text("body").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseCode: integer("response_code"),
    lastError: text("last_error"),
    nextAttemptAt: text("next_attempt_at"),
    claimedAt: text("claimed_at"),
    deliveredAt: text("delivered_at"),
    /** The delivery this one replays. */
    replayOf: text("replay_of"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_idempotency_unique").on(t.idempotencyKey),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

/**
 * Citation Tracker scans (issue 27): one business (the user's own, or a prospect) looked up on every source at one
 * time. `business` is JSON {expected, competitors, name} as it was looked up; each source's lookup lives in
 * citation_checks. `owner_key` ("own:<userId>" or "prospect:<id>") groups a business's history.
 */
export const citationScans = sqliteTable(
  "citation_scans",
  {
    id: id(),
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    /** The owner for an own-business scan; the admin who ran it (or who tracks it) for a prospect's. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    ownerKey: text("owner_key").notNull(),
    business: text("business").notNull(),
    status: text("status", { enum: ["queued", "running", "done"] }).notNull().default("queued"),
    trigger: text("trigger", { enum: ["manual", "cron"] }).notNull().default("manual"),
    estimateSearches: integer("estimate_searches").notNull(),
    estimateMicro: integer("estimate_micro").notNull(),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("citation_scans_owner_idx").on(t.ownerKey, t.createdAt), index("citation_scans_user_idx").on(t.userId, t.kind, t.createdAt)],
);

/**
 * One source of a scan: claimed by compare-and-set per delivery; `progress` keeps the searches that already answered
 * (so a retried lookup never searches twice); `result` is the source's verdict with its evidence (JSON).
 */
export const citationChecks = sqliteTable(
  "citation_checks",
  {
    scanId: text("scan_id")
      .notNull()
      .references(() => citationScans.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    status: text("status", { enum: ["pending", "running", "retrying", "done", "failed"] }).notNull().default("pending"),
    progress: text("progress"),
    result: text("result"),
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: text("claimed_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [primaryKey({ columns: [t.scanId, t.source] }), index("citation_checks_status_idx").on(t.status, t.claimedAt)],
);

/** Businesses whose citations the cron re-scans monthly: `last_scan_at` moves by compare-and-set, so a month scans once. */
export const citationTracking = sqliteTable(
  "citation_tracking",
  {
    ownerKey: text("owner_key").primaryKey(),
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    lastScanAt: text("last_scan_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("citation_tracking_due_idx").on(t.lastScanAt)],
);

/**
 * Google reviews of a user's business (issue 28), kept once by Google's review id: an edit updates the row in place
 * (the version it replaced goes to review_history). `reply_*` is what Google shows; `draft_*` what the owner is about
 * to publish. `reply_state` moves by compare-and-set (queued → publishing → published | failed; delete_queued →
 * deleting → none), so a redelivered publish message does nothing twice.
 */
export const reviews = sqliteTable(
  "reviews",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    locationName: text("location_name").notNull(),
    googleReviewId: text("google_review_id").notNull(),
    /** Google's resource name (accounts/…/locations/…/reviews/…): what updateReply and deleteReply take. */
    googleName: text("google_name").notNull(),
    reviewerName: text("reviewer_name").notNull(),
    reviewerPhotoUrl: text("reviewer_photo_url"),
    reviewerAnonymous: integer("reviewer_anonymous", { mode: "boolean" }).notNull().default(false),
    stars: integer("stars").notNull(),
    comment: text("comment"),
    createTime: text("create_time").notNull(),
    updateTime: text("update_time").notNull(),
    replyComment: text("reply_comment"),
    replyUpdateTime: text("reply_update_time"),
    draft: text("draft"),
    draftSource: text("draft_source", { enum: ["ai", "template", "owner"] }),
    draftNotice: text("draft_notice"),
    replyState: text("reply_state", { enum: ["none", "queued", "publishing", "published", "failed", "delete_queued", "deleting"] }).notNull().default("none"),
    /** The text on its way to Google (set when queued). */
    pendingReply: text("pending_reply"),
    replyError: text("reply_error"),
    publishAttempts: integer("publish_attempts").notNull().default(0),
    /** Auto-publish's due time (4–5 stars only, when the owner turned it on). */
    autoPublishAt: text("auto_publish_at"),
    /** Google no longer lists it (the reviewer removed it). */
    deletedAt: text("deleted_at"),
    firstSeenAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("reviews_user_google_unique").on(t.userId, t.googleReviewId),
    index("reviews_user_time_idx").on(t.userId, t.createTime),
    index("reviews_state_idx").on(t.replyState, t.autoPublishAt),
  ],
);

/** Earlier versions of an edited review (what the reviewer wrote before), newest last. */
export const reviewHistory = sqliteTable(
  "review_history",
  {
    id: id(),
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    stars: integer("stars").notNull(),
    comment: text("comment"),
    updateTime: text("update_time").notNull(),
    recordedAt: createdAt(),
  },
  (t) => [uniqueIndex("review_history_version_unique").on(t.reviewId, t.updateTime)],
);

/** A user's review settings and sync state: the reply voice, auto-publish, and when the cron reads Google next. */
export const reviewSettings = sqliteTable(
  "review_settings",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    tone: text("tone", { enum: ["friendly", "professional", "warm", "brief"] }).notNull().default("friendly"),
    signature: text("signature").notNull().default(""),
    autoPublish: integer("auto_publish", { mode: "boolean" }).notNull().default(false),
    autoPublishDelayHours: integer("auto_publish_delay_hours").notNull().default(24),
    /** The cron's due time; moved by compare-and-set before a sync is enqueued, so a period syncs once. */
    nextSyncAt: text("next_sync_at"),
    /** A Check now on its way (set by compare-and-set when queued, cleared when the sync ends): one in flight. */
    syncClaimedAt: text("sync_claimed_at"),
    /** When the last Check now was accepted: the next waits SYNC_MIN_INTERVAL_MS. */
    syncRequestedAt: text("sync_requested_at"),
    lastSyncAt: text("last_sync_at"),
    lastSyncError: text("last_sync_error"),
    googleAverage: real("google_average"),
    googleTotal: integer("google_total"),
    updatedAt: updatedAt(),
  },
  (t) => [index("review_settings_due_idx").on(t.nextSyncAt)],
);

/**
 * Review requests (issue 28): a business's settings for asking customers for Google reviews. The job-completed hook's
 * token is kept as its SHA-256 (shown once, rotatable); `place_id` is the owner's own choice of Google listing, else
 * the one their latest audit found.
 */
export const reviewRequestSettings = sqliteTable(
  "review_request_settings",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    delayMinutes: integer("delay_minutes").notNull().default(120),
    emailSubject: text("email_subject"),
    emailTemplate: text("email_template"),
    smsTemplate: text("sms_template"),
    /** Quiet hours in the business's time zone, "HH:MM" each: nothing is sent from start until end. */
    quietStart: text("quiet_start").notNull().default("20:00"),
    quietEnd: text("quiet_end").notNull().default("08:00"),
    smsEnabled: integer("sms_enabled", { mode: "boolean" }).notNull().default(true),
    placeId: text("place_id"),
    hookTokenHash: text("hook_token_hash"),
    hookTokenCreatedAt: text("hook_token_created_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("review_request_settings_hook_unique").on(t.hookTokenHash)],
);

/** A business's short review link (`/r/:slug`), one per business, with its clicks counted. */
export const reviewLinks = sqliteTable(
  "review_links",
  {
    slug: text("slug").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clicks: integer("clicks").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("review_links_user_unique").on(t.userId)],
);

/**
 * Customers who asked not to be contacted: by STOP (a phone, for every business: the text line is shared) or by the
 * mail's unsubscribe link (that business; the request's email and phone both). Kept: never removed by a later request.
 */
export const reviewOptOuts = sqliteTable(
  "review_opt_outs",
  {
    /** "*" for every business (SMS STOP), else the business's user id. */
    scope: text("scope").notNull(),
    /** A normalised email address or an E.164 phone number. */
    address: text("address").notNull(),
    via: text("via", { enum: ["sms_stop", "unsubscribe_link"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.address] }), index("review_opt_outs_address_idx").on(t.address)],
);

export const REVIEW_REQUEST_STATUSES = ["scheduled", "sent", "delivered", "opened", "failed", "opted_out"] as const;
/**
 * One review request to one customer: scheduled for `due_at` (the owner's delay, held past quiet hours), claimed by
 * compare-and-set when sent, at most one reminder (`reminder_due_at`) if the link was not opened. `token` ties the
 * short link's click to this request; `external_job_id` makes a field-service hook's job queue one request.
 */
export const reviewRequests = sqliteTable(
  "review_requests",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    customerName: text("customer_name").notNull(),
    email: text("email"),
    phone: text("phone"),
    channel: text("channel", { enum: ["email", "sms"] }).notNull(),
    source: text("source", { enum: ["manual", "csv", "hook"] }).notNull(),
    externalJobId: text("external_job_id"),
    token: text("token").notNull(),
    status: text("status", { enum: REVIEW_REQUEST_STATUSES }).notNull().default("scheduled"),
    dueAt: text("due_at").notNull(),
    enqueuedAt: text("enqueued_at"),
    claimedAt: text("claimed_at"),
    attempts: integer("attempts").notNull().default(0),
    sentAt: text("sent_at"),
    deliveredAt: text("delivered_at"),
    openedAt: text("opened_at"),
    clicks: integer("clicks").notNull().default(0),
    reminderDueAt: text("reminder_due_at"),
    reminderSentAt: text("reminder_sent_at"),
    providerMessageId: text("provider_message_id"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("review_requests_token_unique").on(t.token),
    uniqueIndex("review_requests_job_unique").on(t.userId, t.externalJobId),
    index("review_requests_user_idx").on(t.userId, t.createdAt),
    index("review_requests_email_idx").on(t.userId, t.email, t.createdAt),
    index("review_requests_phone_idx").on(t.userId, t.phone, t.createdAt),
    index("review_requests_due_idx").on(t.status, t.dueAt),
    index("review_requests_reminder_idx").on(t.reminderDueAt),
    index("review_requests_provider_idx").on(t.providerMessageId),
  ],
);

/** The agency's brand (issue 30): one row per deployment (id "agency"); absent until an admin saves the Brand page. */
export const brand = sqliteTable("brand", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  logoKey: text("logo_key"),
  logoContentType: text("logo_content_type"),
  /** Bumped on every logo upload: the logo's URL carries it (`/api/brand/logo?v=`), so caches never serve an old one. */
  logoVersion: integer("logo_version").notNull().default(0),
  accentColor: text("accent_color"),
  website: text("website"),
  supportEmail: text("support_email"),
  supportPhone: text("support_phone"),
  mailSenderName: text("mail_sender_name"),
  footerLine: text("footer_line"),
  updatedAt: updatedAt(),
});
/**
 * AI Visibility questions (issue 29): what a business is asked about on AI assistants, the user's own (owner_key
 * "own:<userId>") or a prospect's ("prospect:<id>", kept by the admin in `user_id`). Tracked questions are asked again
 * weekly by the cron.
 */
export const aiQuestions = sqliteTable(
  "ai_questions",
  {
    id: id(),
    ownerKey: text("owner_key").notNull(),
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    tracked: integer("tracked", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("ai_questions_owner_idx").on(t.ownerKey, t.createdAt), index("ai_questions_tracked_idx").on(t.tracked, t.ownerKey)],
);

/**
 * One AI Visibility scan: every question × engine × sample an `ai_answers` row. `business` is JSON (name, website,
 * phone, Google profile, category, place) and `competitors` the local competitor set (Google Maps plus the audit's),
 * both as they were when the scan was made; `questions` and `engines` are JSON snapshots. `summary` keeps the figures
 * computed when the last answer landed; `week` (YYYY-Www) is set on weekly scans, unique per business, so a double
 * cron run asks once.
 */
export const aiScans = sqliteTable(
  "ai_scans",
  {
    id: id(),
    ownerKey: text("owner_key").notNull(),
    kind: text("kind", { enum: ["own", "prospect"] }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prospectId: text("prospect_id").references(() => prospects.id, { onDelete: "cascade" }),
    business: text("business").notNull(),
    competitors: text("competitors").notNull().default("[]"),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    trigger: text("trigger", { enum: ["manual", "weekly"] }).notNull().default("manual"),
    week: text("week"),
    samples: integer("samples").notNull(),
    engines: text("engines").notNull(),
    questions: text("questions").notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    costMicro: integer("cost_micro").notNull().default(0),
    summary: text("summary"),
    actions: text("actions"),
    actionsSource: text("actions_source", { enum: ["ai", "template"] }),
    /** Set once by whoever computes the figures (compare-and-set), so the last two answers finishing together finish once. */
    finishingAt: text("finishing_at"),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("ai_scans_owner_idx").on(t.ownerKey, t.createdAt), uniqueIndex("ai_scans_week_unique").on(t.ownerKey, t.week), index("ai_scans_status_idx").on(t.status, t.createdAt)],
);

/**
 * One asked question on one engine (one sample): claimed by compare-and-set before its call (queued → claimed → ok |
 * failed). The whole answer (text and sources) is in R2 under `r2_key`; D1 keeps what the figures need: the businesses
 * named (JSON, in order), the cited domains (JSON) and whether the business's own site or profile was cited.
 */
export const aiAnswers = sqliteTable(
  "ai_answers",
  {
    id: id(),
    scanId: text("scan_id")
      .notNull()
      .references(() => aiScans.id, { onDelete: "cascade" }),
    questionId: text("question_id").notNull(),
    engine: text("engine").notNull(),
    sample: integer("sample").notNull(),
    status: text("status", { enum: ["queued", "claimed", "ok", "failed"] }).notNull().default("queued"),
    claimedAt: text("claimed_at"),
    attempts: integer("attempts").notNull().default(0),
    model: text("model"),
    r2Key: text("r2_key"),
    named: text("named"),
    domains: text("domains"),
    ownCited: integer("own_cited", { mode: "boolean" }).notNull().default(false),
    error: text("error"),
    askedAt: text("asked_at"),
  },
  (t) => [index("ai_answers_scan_idx").on(t.scanId, t.status), index("ai_answers_claim_idx").on(t.status, t.claimedAt)],
);

/**
 * Monthly client reports (issue 30): who gets one. A row per business user; absent means off. An admin switches it on
 * for a client, or the user for themselves (`enabled_by`). Recipients are mail addresses (JSON array); empty means the
 * account's own address.
 */
export const clientReportSettings = sqliteTable("client_report_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "YYYY-MM": the month reported on. */
    month: text("month").notNull(),
    trigger: text("trigger", { enum: ["cron", "admin", "user"] }).notNull().default("cron"),
    status: text("status", { enum: ["queued", "building", "ready", "failed"] }).notNull().default("queued"),
    version: integer("version").notNull().default(1),
    shareToken: text("share_token").notNull(),
    claimedAt: text("claimed_at"),
    attempts: integer("attempts").notNull().default(0),
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
