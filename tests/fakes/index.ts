// Starts the AI, search, text-to-speech, mail, Google, DNS-over-HTTPS (the fetch guard's resolver) … fakes together (for vitest globalSetup and e2e around `wrangler dev`).
import { startOpenAiFake, type OpenAiFake } from './openai-fake';
import { startSearchFake, type SearchFake } from './search-fake';
import { startTtsFake, type TtsFake } from './tts-fake';
import { startMailFake, type MailFake } from './mail-fake';
import { startGoogleFake, type GoogleFake } from './google-fake';
import { startPageSpeedFake, type PageSpeedFake } from './pagespeed-fake';
import { startWebsiteFake, type WebsiteFake } from './website-fake';
import { startTurnstileFake, type TurnstileFake } from './turnstile-fake';
import { startWebhookReceiverFake, type WebhookReceiverFake } from './webhook-receiver-fake';
import { startDnsFake, type DnsFake } from './dns-fake';
import { startTwilioFake, type TwilioFake } from './twilio-fake';
import { startAiEnginesFake, type AiEnginesFake } from './ai-engines-fake';

export * from './openai-fake';
export * from './search-fake';
export * from './tts-fake';
export * from './mail-fake';
export * from './google-fake';
export * from './pagespeed-fake';
export * from './website-fake';
export * from './turnstile-fake';
export * from './webhook-receiver-fake';
export * from './dns-fake';
export * from './twilio-fake';
export * from './ai-engines-fake';
export * from './ai-engines-script';
export * from './local-search-fake';
export * from './audit-data';
export * from './widget-fake';
export * from './xss';

export type FakeService = 'ai' | 'search' | 'tts' | 'mail' | 'google' | 'pagespeed' | 'website' | 'turnstile' | 'webhooks' | 'dns' | 'twilio' | 'aiEngines';

export interface StartFakesOptions {
  /** Which fakes to start (default all three). Start a service's fake only where a test calls that service. */
  services?: readonly FakeService[];
  ports?: { ai?: number; search?: number; tts?: number; mail?: number; google?: number; pagespeed?: number; website?: number; turnstile?: number; webhooks?: number; dns?: number; twilio?: number; aiEngines?: number };
  /** Latency added to every successful AI answer. */
  aiLatencyMs?: number;
  /** Streamed answers send their first token after this long (chat benchmark). */
  aiFirstTokenMs?: number;
  /** Added before every AI Visibility engine answer (its benchmark: 2 s per call). */
  aiEnginesLatencyMs?: number;
}

export interface Fakes {
  ai: OpenAiFake;
  /** Only when started (see StartFakesOptions.services). */
  search?: SearchFake;
  tts?: TtsFake;
  mail?: MailFake;
  google?: GoogleFake;
  pagespeed?: PageSpeedFake;
  /** The audit's fake small-business website (its home page is `${website.url}/site/`). */
  website?: WebsiteFake;
  /** The widget's bot check: Turnstile's siteverify. */
  turnstile?: TurnstileFake;
  /** The loopback webhook receiver (endpoints at `${webhooks.url}/hooks/<name>`). */
  webhooks?: WebhookReceiverFake;
  /** The fetch guard's DNS-over-HTTPS resolver (DNS_RESOLVER_URL is `dns.resolverUrl`). */
  dns?: DnsFake;
  /** Twilio's Messages API (review requests by text); TWILIO_BASE_URL is its url. */
  twilio?: TwilioFake;
  /** AI Visibility's engines: OpenAI's Responses API, Perplexity and Gemini under path prefixes (ai-engines-fake.ts). */
  aiEngines?: AiEnginesFake;
  urls: {
    /** OpenAI-compatible base URL ending in /v1 (AI_BASE_URL). */
    ai: string;
    /** Search origin; the API is `${search}/search.json`. */
    search?: string;
    /** TTS origin; the API is `${tts}/v1/text-to-speech/:voiceId`. */
    tts?: string;
    /** Mail API origin (MAIL_BASE_URL): Resend's `/emails`, Postmark's `/email`. */
    mail?: string;
    /** Google OAuth and Business Profile origin (GOOGLE_OAUTH_BASE_URL and GBP_API_BASE_URL). */
    google?: string;
    /** PageSpeed Insights origin (PAGESPEED_BASE_URL). */
    pagespeed?: string;
    website?: string;
    /** Turnstile siteverify origin (TURNSTILE_BASE_URL). */
    turnstile?: string;
    webhooks?: string;
    /** DNS_RESOLVER_URL (the JSON API's /dns-query). */
    dns?: string;
    twilio?: string;
    /** Origin: OPENAI_BASE_URL is `${aiEngines}/openai/v1`, PERPLEXITY_BASE_URL `${aiEngines}/perplexity`, GEMINI_BASE_URL `${aiEngines}/gemini`. */
    aiEngines?: string;
  };
  reset(): void;
  close(): Promise<void>;
}

type AnyFake = { url: string; reset(): void; close(): Promise<void> };

export async function startFakes(opts: StartFakesOptions = {}): Promise<Fakes> {
  const wanted = new Set<FakeService>(opts.services ?? ['ai', 'search', 'tts']);
  wanted.add('ai');
  const starters: Record<FakeService, () => Promise<AnyFake>> = {
    ai: () => startOpenAiFake({ port: opts.ports?.ai ?? 0, latencyMs: opts.aiLatencyMs ?? 0, firstTokenMs: opts.aiFirstTokenMs }),
    search: () => startSearchFake(opts.ports?.search ?? 0),
    tts: () => startTtsFake(opts.ports?.tts ?? 0),
    mail: () => startMailFake(opts.ports?.mail ?? 0),
    google: () => startGoogleFake(opts.ports?.google ?? 0),
    pagespeed: () => startPageSpeedFake(opts.ports?.pagespeed ?? 0),
    website: () => startWebsiteFake(opts.ports?.website ?? 0),
    turnstile: () => startTurnstileFake(opts.ports?.turnstile ?? 0),
    webhooks: () => startWebhookReceiverFake(opts.ports?.webhooks ?? 0),
    dns: () => startDnsFake(opts.ports?.dns ?? 0),
    twilio: () => startTwilioFake(opts.ports?.twilio ?? 0),
    aiEngines: () => startAiEnginesFake(opts.ports?.aiEngines ?? 0, { latencyMs: opts.aiEnginesLatencyMs ?? 0 }),
  };
  const names = [...wanted];
  const started = await Promise.allSettled(names.map((name) => starters[name]()));
  const failure = started.find((s) => s.status === 'rejected');
  if (failure) {
    // Do not leave the ones that did start listening.
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    throw (failure as PromiseRejectedResult).reason;
  }
  const byName = new Map(names.map((name, i) => [name, (started[i] as PromiseFulfilledResult<AnyFake>).value]));
  const ai = byName.get('ai') as OpenAiFake;
  const search = byName.get('search') as SearchFake | undefined;
  const tts = byName.get('tts') as TtsFake | undefined;
  const mail = byName.get('mail') as MailFake | undefined;
  const google = byName.get('google') as GoogleFake | undefined;
  const pagespeed = byName.get('pagespeed') as PageSpeedFake | undefined;
  const website = byName.get('website') as WebsiteFake | undefined;
  const turnstile = byName.get('turnstile') as TurnstileFake | undefined;
  const webhooks = byName.get('webhooks') as WebhookReceiverFake | undefined;
  const dns = byName.get('dns') as DnsFake | undefined;
  const twilio = byName.get('twilio') as TwilioFake | undefined;
  const aiEngines = byName.get('aiEngines') as AiEnginesFake | undefined;
  // The fake business's Google listing links to the fake website.
  if (search && website) search.config.siteUrl = website.url;
  const all = [...byName.values()];
  return {
    ai,
    search,
    tts,
    mail,
    google,
    pagespeed,
    website,
    turnstile,
    webhooks,
    dns,
    twilio,
    aiEngines,
    urls: { ai: ai.url, search: search?.url, tts: tts?.url, mail: mail?.url, google: google?.url, pagespeed: pagespeed?.url, website: website?.url, turnstile: turnstile?.url, webhooks: webhooks?.url, dns: dns?.resolverUrl, twilio: twilio?.url, aiEngines: aiEngines?.url },
    reset() {
      for (const fake of all) fake.reset();
    },
    async close() {
      await Promise.all(all.map((fake) => fake.close()));
    },
  };
}
