// Starts the AI, search and text-to-speech fakes together (for vitest globalSetup and e2e around `wrangler dev`).
import { startOpenAiFake, type OpenAiFake } from './openai-fake';
import { startSearchFake, type SearchFake } from './search-fake';
import { startTtsFake, type TtsFake } from './tts-fake';

export * from './openai-fake';
export * from './search-fake';
export * from './tts-fake';
export * from './widget-fake';

export interface StartFakesOptions {
  ports?: { ai?: number; search?: number; tts?: number };
  /** Latency added to every successful AI answer. */
  aiLatencyMs?: number;
}

export interface Fakes {
  ai: OpenAiFake;
  search: SearchFake;
  tts: TtsFake;
  urls: {
    /** OpenAI-compatible base URL ending in /v1 (AI_BASE_URL). */
    ai: string;
    /** Search origin; the API is `${search}/search.json`. */
    search: string;
    /** TTS origin; the API is `${tts}/v1/text-to-speech/:voiceId`. */
    tts: string;
  };
  reset(): void;
  close(): Promise<void>;
}

export async function startFakes(opts: StartFakesOptions = {}): Promise<Fakes> {
  const started = await Promise.allSettled([
    startOpenAiFake({ port: opts.ports?.ai ?? 0, latencyMs: opts.aiLatencyMs ?? 0 }),
    startSearchFake(opts.ports?.search ?? 0),
    startTtsFake(opts.ports?.tts ?? 0),
  ]);
  const failure = started.find((s) => s.status === 'rejected');
  if (failure) {
    // Do not leave the ones that did start listening.
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    throw (failure as PromiseRejectedResult).reason;
  }
  const [ai, search, tts] = started.map((s) => (s as PromiseFulfilledResult<unknown>).value) as [
    OpenAiFake,
    SearchFake,
    TtsFake,
  ];
  return {
    ai,
    search,
    tts,
    urls: { ai: ai.url, search: search.url, tts: tts.url },
    reset() {
      ai.reset();
      search.reset();
      tts.reset();
    },
    async close() {
      await Promise.all([ai.close(), search.close(), tts.close()]);
    },
  };
}
