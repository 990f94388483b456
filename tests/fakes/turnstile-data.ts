// The fake Turnstile siteverify's keys and tokens, shared by the fake (node) and the worker tests (workerd).
export const FAKE_TURNSTILE_SECRET = 'fake-turnstile-secret';
export const FAKE_TURNSTILE_SITE_KEY = 'fake-turnstile-site-key';
/** The token that passes; 'down' makes siteverify answer 500; anything else fails. */
export const FAKE_TURNSTILE_PASS = 'fake-turnstile-pass';
export const FAKE_TURNSTILE_DOWN = 'down';
