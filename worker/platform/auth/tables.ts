// The accounts' tables: users, their sessions and refresh tokens, the profile row (is_admin, the business's details:
// auth reads it on every admin check, so it lives here, below the profile capability that edits it), two-factor
// factors, challenges and recovery codes, recovery and email-confirmation links, and the admin audit log.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, createdAt, timestamps, belongsTo } from "../db/columns";

export const users = sqliteTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    userMetadata: text("user_metadata").notNull().default("{}"),
    emailConfirmedAt: text("email_confirmed_at"),
    lastSignInAt: text("last_sign_in_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

/** `user_id`: the user a row belongs to, deleted with them. */
export const userId = () => belongsTo("user_id", () => users.id);

/** `user_id` as the primary key: the one row a user has (their settings), deleted with them. */
export const userIdKey = () => text("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" });

export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    userId: userId(),
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
    sessionId: belongsTo("session_id", () => sessions.id),
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
    ...timestamps(),
  },
  (t) => [index("profiles_created_idx").on(t.createdAt), index("profiles_admin_idx").on(t.isAdmin)],
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

/** One-time tokens for password recovery (hashed). */
export const recoveryTokens = sqliteTable(
  "recovery_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: userId(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [index("recovery_tokens_user_idx").on(t.userId)],
);

/** One-time links that confirm a sign-up's email address (hashed); ADMIN_EMAILS grants admin only through one. */
export const emailConfirmations = sqliteTable(
  "email_confirmations",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: userId(),
    /** The address the link was sent to: confirming it confirms only that address. */
    email: text("email").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    /** "signup" confirms the address the user has; "email_change" makes `email` the user's address. */
    kind: text("kind", { enum: ["signup", "email_change"] }).notNull().default("signup"),
  },
  (t) => [index("email_confirmations_user_idx").on(t.userId)],
);

/** TOTP factors (GoTrue's `factors`): the secret is AES-GCM encrypted with a key derived from ENCRYPTION_KEY. */
export const mfaFactors = sqliteTable(
  "mfa_factors",
  {
    id: id(),
    userId: userId(),
    friendlyName: text("friendly_name"),
    factorType: text("factor_type", { enum: ["totp"] }).notNull().default("totp"),
    status: text("status", { enum: ["unverified", "verified"] }).notNull().default("unverified"),
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** The TOTP time step of the last code accepted: a code is never accepted twice. */
    lastUsedStep: integer("last_used_step"),
    ...timestamps(),
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
    userId: userId(),
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
    factorId: belongsTo("factor_id", () => mfaFactors.id),
    sessionId: text("session_id"),
    createdAt: createdAt(),
    verifiedAt: text("verified_at"),
  },
  (t) => [index("mfa_challenges_factor_idx").on(t.factorId)],
);
