// The mail fake must answer as Resend and Postmark do, to the app's own provider client (worker/platform/providers/mail.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendMail, type MailConfig, type OutgoingMail } from '../../worker/platform/providers/mail';
import { startMailFake, type MailFake } from './mail-fake';

let fake: MailFake;
beforeAll(async () => {
  fake = await startMailFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const config = (provider: 'resend' | 'postmark', overrides: Partial<MailConfig> = {}): MailConfig => ({
  provider,
  apiKey: 'test-key',
  from: 'Porchlight <hello@porchlight.test>',
  baseUrl: fake.url,
  timeoutMs: 2000,
  ...overrides,
});
const mail = (to: string, key: string = crypto.randomUUID()): OutgoingMail => ({ to, subject: 'Hello', text: 'Plain', html: '<p>Rich</p>', idempotencyKey: key });

describe.each(['resend', 'postmark'] as const)('mail fake as %s', (provider) => {
  it('accepts a message, records both parts, and answers the provider id', async () => {
    const out = await sendMail(config(provider), mail('ok@example.test'));
    expect(out).toMatchObject({ ok: true, providerMessageId: expect.stringMatching(/^fake-/) });
    expect(fake.delivered).toEqual([
      expect.objectContaining({ api: provider, to: 'ok@example.test', subject: 'Hello', text: 'Plain', html: '<p>Rich</p>', from: 'Porchlight <hello@porchlight.test>' }),
    ]);
    // Readable over HTTP for tests in workerd.
    const listed = (await (await fetch(`${fake.url}/__messages?to=ok@example.test`)).json()) as { messages: unknown[] };
    expect(listed.messages).toHaveLength(1);
  });

  it('refuses a suppressed recipient and a bad address as permanent 4xx', async () => {
    const suppressed = await sendMail(config(provider), mail('suppressed@example.test'));
    expect(suppressed).toMatchObject({ ok: false, permanent: true });
    if (provider === 'postmark') expect(suppressed.ok === false && suppressed.reason).toMatch(/ErrorCode 406/);
    expect(await sendMail(config(provider), mail('badaddress@example.test'))).toMatchObject({ ok: false, permanent: true });
    expect(fake.delivered).toEqual([]);
  });

  it('answers 5xx (retry), and flaky: one 503 per message, then success', async () => {
    expect(await sendMail(config(provider), mail('fail5xx@example.test'))).toMatchObject({ ok: false, permanent: false });
    const key = crypto.randomUUID();
    expect(await sendMail(config(provider), mail('flaky@example.test', key))).toMatchObject({ ok: false, permanent: false, reason: expect.stringMatching(/503/) });
    expect(await sendMail(config(provider), mail('flaky@example.test', key))).toMatchObject({ ok: true });
    expect(fake.requests.filter((r) => r.to === 'flaky@example.test').map((r) => r.status)).toEqual([503, 200]);
  });

  it('is slow for a slow address: the client gives up at its time-out and retries later', async () => {
    const out = await sendMail(config(provider, { timeoutMs: 200 }), mail('slow@example.test'));
    expect(out).toMatchObject({ ok: false, permanent: false, reason: expect.stringMatching(/no answer within 200 ms/) });
  });

  it('wants the API key', async () => {
    expect(await sendMail(config(provider, { apiKey: '' }), mail('ok@example.test'))).toMatchObject({ ok: false, permanent: false, reason: expect.stringMatching(/401/) });
  });
});

describe('mail fake, Resend idempotency', () => {
  it('answers a repeated Idempotency-Key with the first id and sends nothing more', async () => {
    const first = await sendMail(config('resend'), mail('once@example.test', 'same-key'));
    const second = await sendMail(config('resend'), mail('once@example.test', 'same-key'));
    expect(first.ok && second.ok && second.providerMessageId).toBe(first.ok && first.providerMessageId);
    expect(fake.delivered).toHaveLength(1);
  });
});
