// The fake siteverify answers as Cloudflare documents it: the documented examples, hostname included (issue 26).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documented from './fixtures/turnstile-siteverify.json';
import { FAKE_TURNSTILE_PASS, FAKE_TURNSTILE_SECRET, fakeTurnstilePass, startTurnstileFake, type TurnstileFake } from './turnstile-fake';

let fake: TurnstileFake;
beforeAll(async () => {
  fake = await startTurnstileFake();
});
afterAll(() => fake.close());

async function verify(secret: string, response: string) {
  const res = await fetch(`${fake.url}/turnstile/v0/siteverify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret, response }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the fake Turnstile siteverify', () => {
  it('answers a passing token with the documented success example, hostname included', async () => {
    const plain = await verify(FAKE_TURNSTILE_SECRET, FAKE_TURNSTILE_PASS);
    expect(plain).toEqual({ status: 200, body: documented.success });
    expect(plain.body.hostname).toBe('example.com');
    const onSite = await verify(FAKE_TURNSTILE_SECRET, fakeTurnstilePass('www.agency-site.test'));
    expect(onSite.body).toMatchObject({ success: true, hostname: 'www.agency-site.test', 'error-codes': [] });
    expect(Object.keys(onSite.body).sort()).toEqual(Object.keys(documented.success).sort());
  });

  it('answers anything else with the documented failure shape and its error codes', async () => {
    expect(await verify(FAKE_TURNSTILE_SECRET, 'forged')).toEqual({ status: 200, body: documented.failure });
    const secret = await verify('wrong', FAKE_TURNSTILE_PASS);
    expect(secret.body).toEqual({ success: false, 'error-codes': ['invalid-input-secret'] });
    for (const code of (secret.body['error-codes'] as string[])) expect(documented.errorCodes).toContain(code);
    expect(fake.requests.at(-1)).toMatchObject({ secret: 'wrong', response: FAKE_TURNSTILE_PASS });
  });
});
