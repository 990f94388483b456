// The worker's bindings and configuration, as wrangler.toml and `.dev.vars` provide them.
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS?: Fetcher;
  REPORT_JOBS: Queue<ReportJobMessage>;
  USAGE_EVENTS: Queue<UsageEventMessage>;

  JWT_SECRET?: string;
  ADMIN_EMAILS?: string;
  AI_BASE_URL?: string;
  AI_API_KEY?: string;
  AI_MODEL_REPORT?: string;
  AI_MODEL_CHAT?: string;
  AI_MODEL_POST?: string;
  /** Milliseconds one AI call may take before it is abandoned (default 30000). */
  AI_TIMEOUT_MS?: string;
  SERPAPI_KEY?: string;
  /** Search provider origin (default https://serpapi.com); tests point it at a fake. */
  SERPAPI_BASE_URL?: string;
  /** Milliseconds one web search may take (default 15000, spec §9). */
  SEARCH_TIMEOUT_MS?: string;
  ELEVENLABS_API_KEY?: string;
  STRIPE_LINK_MONTHLY?: string;
  STRIPE_LINK_ANNUAL?: string;
  STRIPE_PORTAL_URL?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  CHAT_WIDGET_SRC?: string;
  APP_ORIGIN?: string;
  /** "development" locally (wrangler dev, tests); anything else is treated as production. */
  ENVIRONMENT?: string;
  /** Base delay in seconds for report-job retries (default 10). */
  REPORT_RETRY_BASE_SECONDS?: string;
}

/** Body of a `report-jobs` message. */
export interface ReportJobMessage {
  reportId: string;
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
}
