// The fake Turnstile siteverify's keys and tokens, shared by the fake (node) and the worker tests (workerd).
export const FAKE_TURNSTILE_SECRET = 'fake-turnstile-secret';
export const FAKE_TURNSTILE_SITE_KEY = 'fake-turnstile-site-key';
/**
 * The token that passes, answered with Cloudflare's documented success example as it is (hostname "example.com");
 * 'down' makes siteverify answer 500; anything else fails with the documented failure example.
 */
export const FAKE_TURNSTILE_PASS = 'fake-turnstile-pass';
export const FAKE_TURNSTILE_DOWN = 'down';

/** A passing token for a challenge solved on `hostname`: the success example answers with that hostname. */
export function fakeTurnstilePass(hostname: string): string {
  return `${FAKE_TURNSTILE_PASS}@${hostname}`;
}
