// The webhook receiver fake, driven by the app's own webhook client (worker/platform/providers/webhooks.ts): it records what the
// app sends, answers 500, a first-try 500 or a time-out on demand, and lists requests over HTTP for tests in workerd.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/platform/env';
import { postWebhook } from '../../worker/platform/providers/webhooks';
import { startWebhookReceiverFake, type WebhookReceiverFake } from './webhook-receiver-fake';

let fake: WebhookReceiverFake;
beforeAll(async () => {
  fake = await startWebhookReceiverFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

// The receiver is on loopback: the guard lets it through only with the allowance, as in the worker tests.
const env = { WEBHOOK_TIMEOUT_MS: '500', WEBHOOKS_ALLOW_LOOPBACK: '1' } as Env;
const send = (path: string, deliveryId: string = crypto.randomUUID()) =>
  postWebhook(env, { url: `${fake.url}${path}`, secret: 'whsec_test', body: '{"id":"evt_1"}', deliveryId, eventType: 'report.opened', now: new Date() });

describe('webhook receiver fake', () => {
  it('records the body and headers and answers 200', async () => {
    expect(await send('/hooks/ok', 'd-1')).toEqual({ ok: true, status: 200, error: null });
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]).toMatchObject({ path: '/hooks/ok', body: '{"id":"evt_1"}', status: 200 });
    expect(fake.received[0]!.headers['porchlight-delivery']).toBe('d-1');
    expect(fake.received[0]!.headers['porchlight-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const listed = (await (await fetch(`${fake.url}/__requests?path=/hooks/ok`)).json()) as { requests: unknown[] };
    expect(listed.requests).toHaveLength(1);
  });

  it('answers 500, a first-try 500 per delivery, a time-out, and what it is told', async () => {
    expect(await send('/hooks/fail500')).toMatchObject({ ok: false, status: 500, error: 'answered 500' });
    expect((await send('/hooks/flaky', 'd-2')).status).toBe(500);
    expect((await send('/hooks/flaky', 'd-2')).status).toBe(200);
    expect(await send('/hooks/timeout')).toEqual({ ok: false, status: null, error: 'no answer within 1 s' });
    await fetch(`${fake.url}/__answer`, { method: 'POST', body: JSON.stringify({ path: '/hooks/ok', status: 410 }) });
    expect((await send('/hooks/ok')).status).toBe(410);
  });
});
