// The outside services a deployment can be set up with (issue 26), by their stable ids, and what the Set-up checklist
// and the agency's alerts call each (worker/features/setup/rules/setup.ts says what each unlocks and how to set it up).
// Pure: shared by the worker and the web.

export const PROVIDER_IDS = ["ai", "search", "pagespeed", "mail", "google", "encryption", "voice", "billing", "turnstile", "sms", "openai", "perplexity", "gemini"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

const PROVIDER_NAMES: Record<ProviderId, string> = {
  ai: "AI writing",
  search: "Google search (SerpAPI)",
  pagespeed: "Page speed (PageSpeed Insights)",
  mail: "Email",
  google: "Google Business Profile",
  encryption: "Encryption key",
  voice: "Voice (ElevenLabs)",
  billing: "Billing (Stripe)",
  turnstile: "Bot check (Turnstile)",
  sms: "Text messages (Twilio)",
  openai: "ChatGPT for AI Visibility (OpenAI)",
  perplexity: "Perplexity for AI Visibility",
  gemini: "Gemini for AI Visibility",
};

/** The provider's name as the checklist and an admin alert name it. */
export function providerName(id: ProviderId): string {
  return PROVIDER_NAMES[id];
}
