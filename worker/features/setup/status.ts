// Which outside services this deployment has (issue 26): read from the environment through each provider's own
// "configured" rule, never a secret's value. Feeds the admin Set-up checklist and the customers' capabilities.
import { encryptionConfigured } from "../../platform/crypto/secret-box";
import { PROVIDER_IDS, providerStatuses, type Capabilities, type ProviderId, type SetupResponse } from "./rules/setup";
import type { Env } from "../../platform/env";
import { aiConfigured } from "../../platform/providers/ai";
import { googleConfig } from "../../platform/providers/google";
import { searchConfigured } from "../../platform/providers/local-search";
import { mailConfig } from "../../platform/providers/mail";
import { pagespeedConfigured } from "../../platform/providers/pagespeed";
import { ttsConfigured } from "../../platform/providers/tts";
import { turnstileConfigured } from "../../platform/providers/turnstile";
import { smsConfigured } from "../../platform/providers/sms";

const set = (v: string | undefined) => typeof v === "string" && v.trim() !== "";

export function providersConfigured(env: Env): Record<ProviderId, boolean> {
  const out: Record<ProviderId, boolean> = {
    ai: aiConfigured(env),
    search: searchConfigured(env),
    // Keyless calls work in production; the checklist asks for a key so the quota is the project's own.
    pagespeed: pagespeedConfigured(env) && (env.ENVIRONMENT === "development" || set(env.PAGESPEED_API_KEY)),
    mail: mailConfig(env) !== null && set(env.MAIL_API_KEY),
    google: googleConfig(env) !== null && encryptionConfigured(env),
    encryption: encryptionConfigured(env),
    voice: ttsConfigured(env),
    billing: set(env.STRIPE_LINK_MONTHLY) || set(env.STRIPE_LINK_ANNUAL),
    turnstile: turnstileConfigured(env),
    sms: smsConfigured(env),
    openai: set(env.OPENAI_API_KEY),
    perplexity: set(env.PERPLEXITY_API_KEY),
    gemini: set(env.GEMINI_API_KEY),
  };
  for (const id of PROVIDER_IDS) out[id] = Boolean(out[id]);
  return out;
}

export function setupStatus(env: Env): SetupResponse {
  return { providers: providerStatuses(providersConfigured(env)), environment: env.ENVIRONMENT === "development" ? "development" : "production" };
}

export function capabilities(env: Env): Capabilities {
  return {
    search: searchConfigured(env),
    pagespeed: pagespeedConfigured(env),
    ai: aiConfigured(env),
    mail: mailConfig(env) !== null,
    publishing: googleConfig(env) !== null && encryptionConfigured(env),
  };
}
