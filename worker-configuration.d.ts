/* eslint-disable */
// Generated from wrangler.toml by `npm run types` (scripts/env-types.ts). Do not edit.
declare namespace Cloudflare {
	interface Env {
		FILES: R2Bucket;
		DB: D1Database;
		REPORT_JOBS: Queue;
		USAGE_EVENTS: Queue;
		MAIL_OUT: Queue;
		GBP_POSTS: Queue;
		AUDITS: Queue;
		RANK_CHECKS: Queue;
		WEBHOOKS_OUT: Queue;
		CITATIONS: Queue;
		REVIEWS: Queue;
		AI_VISIBILITY: Queue;
		CLIENT_REPORTS: Queue;
		GBP_GUARD: Queue;
		ASSETS: Fetcher;
		ENVIRONMENT: string;
		ADMIN_EMAILS: string;
		AI_BASE_URL: string;
		AI_MODEL_REPORT: string;
		AI_MODEL_CHAT: string;
		AI_MODEL_POST: string;
		AI_TIMEOUT_MS: string;
		REPORT_RETRY_BASE_SECONDS: string;
		APP_ORIGIN: string;
		CHAT_WIDGET_SRC: string;
		SPEND_CEILING_DAILY_USD: string;
		PLAN_ALLOWANCE_FREE_USD: string;
		PLAN_ALLOWANCE_SELF_SERVICE_USD: string;
		SPEND_CEILING_FREE_SHARE: string;
		MAIL_PROVIDER: string;
		MAIL_FROM: string;
		MAIL_BASE_URL: string;
		REQUIRE_ADMIN_MFA: string;
		GOOGLE_OAUTH_CLIENT_ID: string;
		GOOGLE_OAUTH_BASE_URL: string;
		GBP_API_BASE_URL: string;
		GBP_PERFORMANCE_BASE_URL: string;
		GBP_RECONCILE_SECONDS: string;
		PAGESPEED_BASE_URL: string;
		AUDIT_ALLOW_LOOPBACK: string;
		MAP_TILE_URL: string;
		TURNSTILE_SITE_KEY: string;
		TURNSTILE_BASE_URL: string;
		WEBHOOKS_ALLOW_LOOPBACK: string;
		DNS_RESOLVER_URL: string;
		DNS_TIMEOUT_MS: string;
		TWILIO_ACCOUNT_SID: string;
		TWILIO_MESSAGING_SERVICE_SID: string;
		TWILIO_BASE_URL: string;
		SMS_ALLOWED_COUNTRIES: string;
		OPENAI_BASE_URL: string;
		PERPLEXITY_BASE_URL: string;
		GEMINI_BASE_URL: string;
	}
}
interface Env extends Cloudflare.Env {}
type StringifyValues<EnvType extends Record<string, unknown>> = {
	[Binding in keyof EnvType]: EnvType[Binding] extends string ? EnvType[Binding] : string;
};
declare namespace NodeJS {
	interface ProcessEnv extends StringifyValues<Pick<Cloudflare.Env, "ENVIRONMENT" | "ADMIN_EMAILS" | "AI_BASE_URL" | "AI_MODEL_REPORT" | "AI_MODEL_CHAT" | "AI_MODEL_POST" | "AI_TIMEOUT_MS" | "REPORT_RETRY_BASE_SECONDS" | "APP_ORIGIN" | "CHAT_WIDGET_SRC" | "SPEND_CEILING_DAILY_USD" | "PLAN_ALLOWANCE_FREE_USD" | "PLAN_ALLOWANCE_SELF_SERVICE_USD" | "SPEND_CEILING_FREE_SHARE" | "MAIL_PROVIDER" | "MAIL_FROM" | "MAIL_BASE_URL" | "REQUIRE_ADMIN_MFA" | "GOOGLE_OAUTH_CLIENT_ID" | "GOOGLE_OAUTH_BASE_URL" | "GBP_API_BASE_URL" | "GBP_PERFORMANCE_BASE_URL" | "GBP_RECONCILE_SECONDS" | "PAGESPEED_BASE_URL" | "AUDIT_ALLOW_LOOPBACK" | "MAP_TILE_URL" | "TURNSTILE_SITE_KEY" | "TURNSTILE_BASE_URL" | "WEBHOOKS_ALLOW_LOOPBACK" | "DNS_RESOLVER_URL" | "DNS_TIMEOUT_MS" | "TWILIO_ACCOUNT_SID" | "TWILIO_MESSAGING_SERVICE_SID" | "TWILIO_BASE_URL" | "SMS_ALLOWED_COUNTRIES" | "OPENAI_BASE_URL" | "PERPLEXITY_BASE_URL" | "GEMINI_BASE_URL">> {}
}
declare module "*.ttf" {
	const value: ArrayBuffer;
	export default value;
}