// Google Business Profile: connections, OAuth starts and the scheduled posts.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { claimColumns } from "../../platform/jobs/columns";
import { id, createdAt, timestamps } from "../../platform/db/columns";
import { users, userId } from "../../platform/auth/tables";

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
  ...timestamps(),
});

/** An OAuth start: state and PKCE verifier kept server-side for ten minutes, used once, bound to the starting browser. */
export const oauthStates = sqliteTable(
  "oauth_states",
  {
    /** SHA-256 of the state parameter (the state itself only travels through the browser). */
    id: id(),
    userId: userId(),
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
    userId: userId(),
    /** JSON: a GmbPost (worker/platform/providers/rules/gmb-post.ts). */
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
    ...claimColumns(),
    /** The publisher does not look at it again before this time (backoff, reconciliation). */
    nextAttemptAt: text("next_attempt_at"),
    publishedAt: text("published_at"),
    remindedAt: text("reminded_at"),
    ...timestamps(),
  },
  (t) => [index("scheduled_posts_user_idx").on(t.userId, t.scheduledAt), index("scheduled_posts_due_idx").on(t.state, t.scheduledAt)],
);
