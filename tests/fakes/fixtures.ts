// The providers' documented example answers (tests/fakes/fixtures/<provider>/…, sources in fixtures/SOURCES.md), read
// by the fakes that serve them and by the tests of the provider clients' parsing. Node only (the fakes' side).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, 'fixtures');

export type FixtureProvider = 'serpapi' | 'pagespeed' | 'stripe' | 'turnstile' | 'resend' | 'postmark' | 'openai' | 'google' | 'elevenlabs' | 'twilio' | 'perplexity' | 'gemini';

/** The raw text of a fixture (an SSE stream, say). */
export function fixtureText(provider: FixtureProvider, file: string): string {
  return readFileSync(join(DIR, provider, file), 'utf8');
}

/** The raw bytes of a fixture (an audio answer). */
export function fixtureBytes(provider: FixtureProvider, file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(DIR, provider, file)));
}

/** A fresh copy of a JSON fixture each call: a caller may adapt it without changing what others read. */
export function fixture<T extends object = Record<string, any>>(provider: FixtureProvider, file: string): T {
  return JSON.parse(fixtureText(provider, file)) as T;
}
