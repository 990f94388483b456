// A loopback Twilio Messages API (issue 28's review requests by text): POST /2010-04-01/Accounts/:sid/Messages.json,
// form-encoded, HTTP Basic auth, answering with Twilio's documented example (fixtures/twilio/, sources in
// fixtures/SOURCES.md). It records every message, and makes Twilio's callbacks: a delivery status for a sent message,
// and an incoming STOP, each signed with X-Twilio-Signature. The number decides: FAKE_TWILIO_UNSUBSCRIBED answers
// 21610 (the recipient opted out at Twilio), FAKE_TWILIO_DOWN a 500; anything not E.164 21211.
//
// For tests in workerd (which cannot reach the fake's callbacks themselves): POST /__callback {kind, sid|from, status,
// url} answers {url, form, signature} for the test to send; GET /__messages?to= lists messages; POST /__reset.
import { createHmac } from 'node:crypto';
import { listen, readBody, sendJson } from './http-helpers';
import { fixture } from './fixtures';
import { FAKE_TWILIO_ACCOUNT_SID, FAKE_TWILIO_AUTH_TOKEN, FAKE_TWILIO_DOWN, FAKE_TWILIO_UNSUBSCRIBED } from './twilio-data';

export * from './twilio-data';

export interface FakeSms {
  sid: string;
  to: string;
  body: string;
  messagingServiceSid: string | null;
  statusCallback: string | null;
  at: string;
}

export interface TwilioFake {
  url: string;
  messages: FakeSms[];
  reset(): void;
  close(): Promise<void>;
}

/** X-Twilio-Signature as Twilio computes it: the URL, then each parameter's name and value sorted by name. */
export function signTwilio(authToken: string, url: string, params: Record<string, string>): string {
  const data = url + Object.keys(params).sort().map((k) => k + params[k]).join('');
  return createHmac('sha1', authToken).update(data).digest('base64');
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

/** The status callback Twilio sends for a message (delivered, failed with an error code …). */
export function statusCallbackForm(message: Pick<FakeSms, 'sid' | 'to' | 'messagingServiceSid'>, status: string, errorCode?: number): Record<string, string> {
  const form: Record<string, string> = { ...fixture<Record<string, string>>('twilio', 'status-callback-delivered.json'), MessageSid: message.sid, SmsSid: message.sid, MessageStatus: status, SmsStatus: status, To: message.to, AccountSid: FAKE_TWILIO_ACCOUNT_SID };
  if (message.messagingServiceSid) form.MessagingServiceSid = message.messagingServiceSid;
  if (errorCode) form.ErrorCode = String(errorCode);
  return form;
}

/** An incoming message (STOP by default, with Advanced Opt-Out's OptOutType). */
export function incomingForm(from: string, body = 'STOP'): Record<string, string> {
  const form: Record<string, string> = { ...fixture<Record<string, string>>('twilio', 'incoming-stop.json'), From: from, Body: body, AccountSid: FAKE_TWILIO_ACCOUNT_SID };
  if (body.trim().toUpperCase() !== 'STOP') delete form.OptOutType;
  return form;
}

export async function startTwilioFake(port = 0): Promise<TwilioFake> {
  const messages: FakeSms[] = [];
  let counter = 0;
  const running = await listen(port, async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    if (req.method === 'GET' && url.pathname === '/__messages') {
      const to = url.searchParams.get('to');
      return sendJson(res, 200, { messages: messages.filter((m) => to === null || m.to === to) });
    }
    if (req.method === 'POST' && url.pathname === '/__reset') {
      messages.splice(0);
      return sendJson(res, 200, {});
    }
    if (req.method === 'POST' && url.pathname === '/__callback') {
      const input = JSON.parse((await readBody(req)) || '{}') as { kind?: string; sid?: string; status?: string; errorCode?: number; from?: string; body?: string; url?: string };
      let form: Record<string, string>;
      let target = input.url ?? '';
      if (input.kind === 'incoming') form = incomingForm(input.from ?? '', input.body);
      else {
        const message = messages.find((m) => m.sid === input.sid);
        if (!message) return sendJson(res, 404, { error: 'no such message' });
        form = statusCallbackForm(message, input.status ?? 'delivered', input.errorCode);
        target ||= message.statusCallback ?? '';
      }
      return sendJson(res, 200, { url: target, form, signature: signTwilio(FAKE_TWILIO_AUTH_TOKEN, target, form) });
    }
    const send = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
    if (req.method !== 'POST' || !send) return sendJson(res, 404, { code: 20404, message: 'The requested resource was not found', more_info: 'https://www.twilio.com/docs/errors/20404', status: 404 });
    const expected = `Basic ${Buffer.from(`${FAKE_TWILIO_ACCOUNT_SID}:${FAKE_TWILIO_AUTH_TOKEN}`).toString('base64')}`;
    if (req.headers.authorization !== expected || send[1] !== FAKE_TWILIO_ACCOUNT_SID) return sendJson(res, 401, fixture('twilio', 'error-authenticate.json'));
    const form = new URLSearchParams(await readBody(req));
    const to = form.get('To') ?? '';
    if (to === FAKE_TWILIO_DOWN) return sendJson(res, 500, { code: 20500, message: 'Internal Server Error', more_info: 'https://www.twilio.com/docs/errors/20500', status: 500 });
    if (to === FAKE_TWILIO_UNSUBSCRIBED) return sendJson(res, 400, fixture('twilio', 'error-unsubscribed-recipient.json'));
    if (!/^\+[1-9]\d{7,14}$/.test(to)) return sendJson(res, 400, { ...fixture('twilio', 'error-invalid-to.json'), message: `Invalid 'To' Phone Number: ${to}` });
    counter += 1;
    const sid = `SM${counter.toString(16).padStart(32, '0')}`;
    const now = new Date();
    const message: FakeSms = { sid, to, body: form.get('Body') ?? '', messagingServiceSid: form.get('MessagingServiceSid'), statusCallback: form.get('StatusCallback'), at: now.toISOString() };
    messages.push(message);
    const answer = fixture<Record<string, unknown>>('twilio', 'message-created.json');
    const uri = `/2010-04-01/Accounts/${FAKE_TWILIO_ACCOUNT_SID}/Messages/${sid}`;
    return sendJson(res, 201, {
      ...answer,
      account_sid: FAKE_TWILIO_ACCOUNT_SID,
      sid,
      to,
      body: message.body,
      messaging_service_sid: message.messagingServiceSid,
      date_created: rfc2822(now),
      date_updated: rfc2822(now),
      uri: `${uri}.json`,
      subresource_uris: { media: `${uri}/Media.json` },
    });
  });
  return {
    url: running.origin,
    messages,
    reset: () => void messages.splice(0),
    close: () => running.close(),
  };
}
