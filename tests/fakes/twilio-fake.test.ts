// The Twilio fake answers the real client (worker/platform/providers/sms.ts) with Twilio's documented shapes, and signs its
// callbacks so the worker's signature check accepts them (issue 28).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSms, verifyTwilioSignature, type SmsConfig } from '../../worker/platform/providers/sms';
import { FAKE_TWILIO_ACCOUNT_SID, FAKE_TWILIO_AUTH_TOKEN, FAKE_TWILIO_MESSAGING_SERVICE_SID, FAKE_TWILIO_UNSUBSCRIBED, startTwilioFake, type TwilioFake } from './twilio-fake';

let fake: TwilioFake;
let config: SmsConfig;
beforeAll(async () => {
  fake = await startTwilioFake();
  config = { accountSid: FAKE_TWILIO_ACCOUNT_SID, authToken: FAKE_TWILIO_AUTH_TOKEN, messagingServiceSid: FAKE_TWILIO_MESSAGING_SERVICE_SID, baseUrl: fake.url, timeoutMs: 2000 };
});
afterAll(() => fake.close());

describe('the fake Twilio Messages API', () => {
  it('records a message and answers the documented Message resource', async () => {
    const out = await sendSms(config, { to: '+15125550142', body: 'Hi Ann', statusCallback: 'http://127.0.0.1/cb' });
    expect(out).toMatchObject({ ok: true, status: 'queued', segments: null });
    expect(fake.messages.at(-1)).toMatchObject({ to: '+15125550142', body: 'Hi Ann', messagingServiceSid: FAKE_TWILIO_MESSAGING_SERVICE_SID, statusCallback: 'http://127.0.0.1/cb' });
  });

  it('refuses a wrong token and an opted-out number with Twilio error codes', async () => {
    expect(await sendSms({ ...config, authToken: 'wrong' }, { to: '+15125550142', body: 'x', statusCallback: 'http://127.0.0.1/cb' })).toMatchObject({ ok: false, code: 20003 });
    expect(await sendSms(config, { to: FAKE_TWILIO_UNSUBSCRIBED, body: 'x', statusCallback: 'http://127.0.0.1/cb' })).toMatchObject({ ok: false, optedOut: true, code: 21610, retryable: false });
  });

  it('signs a delivery callback and a STOP so that the worker verifies them, and nothing else', async () => {
    const sent = await sendSms(config, { to: '+15125550143', body: 'Hi', statusCallback: 'http://127.0.0.1/cb' });
    const sid = sent.ok ? sent.sid : '';
    for (const input of [{ sid, status: 'delivered' }, { kind: 'incoming', from: '+15125550143', url: 'http://127.0.0.1/in' }]) {
      const res = await fetch(`${fake.url}/__callback`, { method: 'POST', body: JSON.stringify(input) });
      const { url, form, signature } = (await res.json()) as { url: string; form: Record<string, string>; signature: string };
      expect(await verifyTwilioSignature(FAKE_TWILIO_AUTH_TOKEN, url, new URLSearchParams(form), signature)).toBe(true);
      expect(await verifyTwilioSignature(FAKE_TWILIO_AUTH_TOKEN, `${url}x`, new URLSearchParams(form), signature)).toBe(false);
    }
  });
});
