// The outside services the product can use (issue 26): what each unlocks, what customers get without it, how an
// operator sets it up, and the stable codes customers' screens are worded from. Set-up wording lives here and on
// admin screens only; customers see CUSTOMER_UNAVAILABLE. Pure: shared by the worker and the web.

import { PROVIDER_IDS, providerName, type ProviderId } from "../../../platform/providers/rules/services";

export { PROVIDER_IDS, providerName, type ProviderId } from "../../../platform/providers/rules/services";

/** One provider on the admin Set-up checklist (GET /api/admin/setup): never a secret's value, only whether it is set. */
export type ProviderStatus = {
  id: ProviderId;
  name: string;
  configured: boolean;
  /** What it unlocks for customers. */
  unlocks: string;
  /** What customers get while it is missing. */
  without: string;
  /** How an operator configures it (names of settings and secrets, in order). */
  howTo: string[];
};

export type SetupResponse = { providers: ProviderStatus[]; environment: "development" | "production" };

/** What a customer's screens may offer (GET /api/capabilities): booleans only. */
export type Capabilities = { search: boolean; pagespeed: boolean; ai: boolean; mail: boolean; publishing: boolean };

/** Stable codes on customer-facing errors and step states, so screens word them and disable what cannot work. */
export const UnavailableCode = {
  search: "search_unavailable",
  pagespeed: "pagespeed_unavailable",
  timedOut: "step_timed_out",
} as const;
export type UnavailableCode = (typeof UnavailableCode)[keyof typeof UnavailableCode];

/** What a customer reads when a service is missing (the agency is told: see worker/platform/notifications/tell-agency.ts). */
export const CUSTOMER_UNAVAILABLE = {
  search: "Google search isn't available yet",
  searchTold: "Google search isn't available yet; your agency has been told.",
  pagespeed: "page speed measuring isn't available yet",
  publishing: "Publishing straight to Google isn't available yet; your agency has been told.",
  email: "Email alerts aren't available yet, so alerts reach you in the app only.",
} as const;

const META: Record<ProviderId, Omit<ProviderStatus, "id" | "name" | "configured">> = {
  ai: {
    unlocks: "AI-written reports, chat replies, posts and content tools.",
    without: "Reports and posts use template content; chats answer from the local fallback.",
    howTo: ["Set the secret AI_API_KEY (an OpenAI-compatible key; AI_BASE_URL picks the endpoint, OpenRouter by default)."],
  },
  search: {
    unlocks: "The audits' Google steps, the Local Search Grid, the Local Rank Tracker, Google Search Results, the Local Services Analyzer, and Google AI Overviews and AI Mode in AI Visibility.",
    without: "Customers are told search isn't available yet; grid and tracker buttons are disabled; the search tools show sample data.",
    howTo: ["Create a SerpAPI account and copy its API key.", "Set the secret SERPAPI_KEY (`wrangler secret put SERPAPI_KEY`; locally in .dev.vars)."],
  },
  pagespeed: {
    unlocks: "The audit's page speed checks.",
    without: "In production, keyless calls at a low quota. Locally, the step is skipped.",
    howTo: ["Create an API key for the PageSpeed Insights API in Google Cloud Console.", "Set the secret PAGESPEED_API_KEY (`wrangler secret put PAGESPEED_API_KEY`; locally in .dev.vars)."],
  },
  mail: {
    unlocks: "Sign-up confirmations, password resets, alerts and reminders by email.",
    without: "Mail is kept in the outbox, not sent: admins read it at /api/admin/outbox (locally also /auth/v1/outbox?email=… on this machine); alerts reach people in the app only.",
    howTo: ["Set MAIL_PROVIDER (resend or postmark) and MAIL_FROM in wrangler.toml.", "Set the secret MAIL_API_KEY (`wrangler secret put MAIL_API_KEY`)."],
  },
  google: {
    unlocks: "Connecting a Business Profile, publishing scheduled posts, the review inbox.",
    without: "The scheduler reminds customers to post by hand; Integrations says publishing isn't available yet.",
    howTo: [
      "In Google Cloud Console, create a project and an OAuth client of type “Web application” with the authorised redirect URI <origin>/api/integrations/google/callback.",
      "Enable the My Business Account Management API, the My Business Business Information API and the Google My Business API for that project, and ask Google for Business Profile API access.",
      "Set GOOGLE_OAUTH_CLIENT_ID in wrangler.toml and the secret GOOGLE_OAUTH_CLIENT_SECRET (`wrangler secret put GOOGLE_OAUTH_CLIENT_SECRET`; locally in .dev.vars).",
      "ENCRYPTION_KEY must be set too: Google's tokens are kept encrypted.",
    ],
  },
  encryption: {
    unlocks: "Two-factor sign-in, the Google connection and webhook secrets (all kept encrypted).",
    without: "Those features are refused.",
    howTo: ["Set the secret ENCRYPTION_KEY to a random string of 32+ characters (`npm start` writes one into .dev.vars locally)."],
  },
  voice: {
    unlocks: "Spoken chat replies in a natural voice.",
    without: "The browser's own speech synthesis.",
    howTo: ["Set the secret ELEVENLABS_API_KEY."],
  },
  billing: {
    unlocks: "Subscribe buttons, the customer portal and subscription updates.",
    without: "Subscribe buttons explain that billing is not available.",
    howTo: ["Set STRIPE_LINK_MONTHLY, STRIPE_LINK_ANNUAL and STRIPE_PORTAL_URL.", "Set the secret STRIPE_WEBHOOK_SECRET for subscription updates."],
  },
  turnstile: {
    unlocks: "A bot check on the public free-audit widget.",
    without: "The widget is protected by rate limits alone.",
    howTo: ["Set TURNSTILE_SITE_KEY in wrangler.toml and the secret TURNSTILE_SECRET_KEY."],
  },
  sms: {
    unlocks: "Review requests by text message, with delivery reports and STOP handled.",
    without: "Review requests go by email only; customers with only a phone number can't be asked.",
    howTo: [
      "Create a Twilio Messaging Service with a sender, and set its incoming-message webhook to <origin>/api/review-requests/sms/incoming.",
      "Set TWILIO_ACCOUNT_SID and TWILIO_MESSAGING_SERVICE_SID in wrangler.toml and the secret TWILIO_AUTH_TOKEN (`wrangler secret put TWILIO_AUTH_TOKEN`).",
    ],
  },
  openai: {
    unlocks: "AI Visibility asks ChatGPT (the OpenAI API with web search) who it recommends.",
    without: "AI Visibility does not offer ChatGPT; the other configured assistants are asked.",
    howTo: [
      "Create an API key at platform.openai.com (a project with billing: each question costs about $0.03 with its web search).",
      "Set the secret OPENAI_API_KEY (`wrangler secret put OPENAI_API_KEY`; locally in .dev.vars). OPENAI_BASE_URL in wrangler.toml changes the origin (empty: OpenAI's).",
    ],
  },
  perplexity: {
    unlocks: "AI Visibility asks Perplexity (its Sonar API, which names its sources) who it recommends.",
    without: "AI Visibility does not offer Perplexity; the other configured assistants are asked.",
    howTo: [
      "Create an API key in Perplexity's API settings (credits bought ahead: each question costs about $0.01).",
      "Set the secret PERPLEXITY_API_KEY (`wrangler secret put PERPLEXITY_API_KEY`). PERPLEXITY_BASE_URL changes the origin (empty: Perplexity's).",
    ],
  },
  gemini: {
    unlocks: "AI Visibility asks Gemini, grounded in Google Search, who it recommends.",
    without: "AI Visibility does not offer Gemini; the other configured assistants are asked.",
    howTo: [
      "Create a Gemini API key in Google AI Studio on a billed project (grounded prompts are billed past the free tier: about $0.04 a question).",
      "Set the secret GEMINI_API_KEY (`wrangler secret put GEMINI_API_KEY`). GEMINI_BASE_URL changes the origin (empty: Google's).",
    ],
  },
};

export function providerStatuses(configured: Record<ProviderId, boolean>): ProviderStatus[] {
  return PROVIDER_IDS.map((id) => ({ id, configured: configured[id], name: providerName(id), ...META[id] }));
}
