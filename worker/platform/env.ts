// The worker's bindings and configuration: what wrangler.toml declares comes from `npm run types`
// (worker-configuration.d.ts, checked for drift by `npm test`); secrets and settings it does not hold are declared here.

/** Secrets (`wrangler secret put NAME`, `.dev.vars` locally) and settings wrangler.toml leaves out: never in [vars]. */
export interface Secrets {
  /** Signs access tokens; at least 32 characters. */
  JWT_SECRET?: string;
  AI_API_KEY?: string;
  SERPAPI_KEY?: string;
  /** Search provider origin (default https://serpapi.com); tests point it at a fake. */
  SERPAPI_BASE_URL?: string;
  /** Milliseconds one web search may take (default 15000, spec §9). */
  SEARCH_TIMEOUT_MS?: string;
  ELEVENLABS_API_KEY?: string;
  /** Text-to-speech origin (default https://api.elevenlabs.io); tests point it at the fake. */
  ELEVENLABS_BASE_URL?: string;
  STRIPE_LINK_MONTHLY?: string;
  STRIPE_LINK_ANNUAL?: string;
  STRIPE_PORTAL_URL?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** libSQL/Turso database URL (libsql://…, https://…): when set, data lives there instead of D1. */
  LIBSQL_URL?: string;
  LIBSQL_AUTH_TOKEN?: string;
  /** The mail provider's API key (MAIL_PROVIDER picks Resend or Postmark). */
  MAIL_API_KEY?: string;
  /** Milliseconds one call to the mail provider may take (default 10000). */
  MAIL_TIMEOUT_MS?: string;
  /** 32+ characters; secrets at rest (TOTP secrets) are encrypted with a key derived from it by HKDF. */
  ENCRYPTION_KEY?: string;
  /** The Google OAuth client's secret (Google Business Profile connection). */
  GOOGLE_OAUTH_CLIENT_SECRET?: string;
  /** Milliseconds one call to Google may take (default 10000). */
  GOOGLE_TIMEOUT_MS?: string;
  /** PageSpeed Insights v5 key (optional: keyless calls work at a low quota). */
  PAGESPEED_API_KEY?: string;
  /** Milliseconds each audit step may take (tests shorten them); defaults in worker/features/audits/config.ts. */
  AUDIT_FIND_TIMEOUT_MS?: string;
  AUDIT_FETCH_TIMEOUT_MS?: string;
  AUDIT_SPEED_TIMEOUT_MS?: string;
  AUDIT_RANK_TIMEOUT_MS?: string;
  /** How long report generation waits for an audit's fast steps (find, fetch, rank), in ms (default 90000). */
  AUDIT_REPORT_WAIT_MS?: string;
  /** Cloudflare Turnstile's secret: with TURNSTILE_SITE_KEY, widget submissions are verified by siteverify. */
  TURNSTILE_SECRET_KEY?: string;
  /** Milliseconds siteverify may take (default 5000). */
  TURNSTILE_TIMEOUT_MS?: string;
  /** Milliseconds one webhook delivery may take (default 10000). */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Twilio's auth token: sends review requests by text message (with TWILIO_ACCOUNT_SID and TWILIO_MESSAGING_SERVICE_SID) and signs its callbacks. */
  TWILIO_AUTH_TOKEN?: string;
  /** Milliseconds one call to Twilio may take (default 10000). */
  TWILIO_TIMEOUT_MS?: string;
  /** AI Visibility (issue 29): ChatGPT with web search through OpenAI's Responses API (OPENAI_BASE_URL picks the origin). */
  OPENAI_API_KEY?: string;
  /** AI Visibility: Perplexity's Sonar API (PERPLEXITY_BASE_URL picks the origin). */
  PERPLEXITY_API_KEY?: string;
  /** AI Visibility: Gemini with Google Search grounding (GEMINI_BASE_URL picks the origin). */
  GEMINI_API_KEY?: string;
  /** Milliseconds one AI Visibility engine call may take (default 60000: a searched answer takes 10-30 s). */
  AI_ENGINE_TIMEOUT_MS?: string;
  /** Tests only (with AUDIT_ALLOW_LOOPBACK): the fake directory web the Citation Tracker reads listing pages from. */
  CITATIONS_WEB_BASE_URL?: string;
}

/** The queue producers with their message bodies (wrangler types types them as Queue<unknown>). */
interface TypedQueues {
  REPORT_JOBS: Queue<ReportJobMessage>;
  USAGE_EVENTS: Queue<UsageEventMessage>;
  MAIL_OUT: Queue<MailOutMessage>;
  GBP_POSTS: Queue<GbpPostsMessage>;
  AUDITS: Queue<AuditStepMessage>;
  RANK_CHECKS: Queue<RankCheckMessage>;
  WEBHOOKS_OUT: Queue<WebhooksOutMessage>;
  CITATIONS: Queue<CitationsMessage>;
  REVIEWS: Queue<ReviewsMessage>;
  AI_VISIBILITY: Queue<AiVisibilityMessage>;
  CLIENT_REPORTS: Queue<ClientReportsMessage>;
  GBP_GUARD: Queue<GbpGuardMessage>;
}

/**
 * Bindings and [vars] from wrangler.toml, typed queues and secrets. Of the vars: ENVIRONMENT is
 * "development" locally (wrangler dev, tests), anything else is production; AI_TIMEOUT_MS is how long one
 * AI call may take (ms); REPORT_RETRY_BASE_SECONDS is the base delay of report-job retries.
 */
export type Env = Omit<Cloudflare.Env, keyof TypedQueues> & TypedQueues & Secrets;

/** Body of a `report-jobs` message. */
export interface ReportJobMessage {
  reportId: string;
}

/** Body of an `audits` message: one step of one audit. */
export interface AuditStepMessage {
  auditId: string;
  step: "find" | "fetch" | "speed" | "rank";
}

/** Body of a `rank-checks` message: a few points of one grid scan (by index), or a few tracked-keyword checks. */
export type RankCheckMessage = { kind: "grid"; scanId: string; points: number[] } | { kind: "keyword"; checkIds: string[] };

/** Body of a `citations` message: a few sources of one citation scan. */
export interface CitationsMessage {
  scanId: string;
  sources: string[];
}

/** Body of a `client-reports` message (issue 30): a few reports to build (each claimed by compare-and-set). */
export interface ClientReportsMessage {
  reportIds: string[];
}

/** Body of a `gbp-guard` message (issue 41): a few watched locations to check against Google (each claimed by compare-and-set). */
export interface GbpGuardMessage {
  locationIds: string[];
}

/** Body of an `ai-visibility` message (issue 29): a few answers (questions asked on an engine) of one scan. */
export interface AiVisibilityMessage {
  scanId: string;
  answerIds: string[];
}

/**
 * Body of a `reviews` message (issue 28): `sync` reads a few businesses' Google reviews, `publish` sends a few
 * approved replies to Google, `send` sends a few due review requests (mail or SMS). Ids only; the rows stay in D1.
 */
export type ReviewsMessage =
  | { kind: "sync"; userIds: string[] }
  | { kind: "publish"; reviewIds: string[] }
  | { kind: "send"; requestIds: string[] };

/** Body of a `mail-out` message: the outbox row to deliver (its content stays in D1). */
export interface MailOutMessage {
  mailId: string;
}

/** Body of a `webhooks-out` message: one delivery to send (its body and endpoint stay in D1). */
export interface WebhooksOutMessage {
  deliveryId: string;
}

/** Body of a `gbp-posts` message: a few scheduled posts to publish or whose review state to check. */
export interface GbpPostsMessage {
  postIds: string[];
}

/** Body of a `usage-events` message: one ai_usage_logs row. */
export interface UsageEventMessage {
  event_id: string;
  user_id: string | null;
  tool_name: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  estimated_cost: number;
  request_data: string | null;
  response_data: string | null;
  created_at: string;
  /** True when the token counts are the length / 4 estimate (the provider sent no usage). */
  tokens_estimated?: boolean;
}
