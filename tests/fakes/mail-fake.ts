// A loopback transactional mail API in both shapes the app speaks: Resend (POST /emails) and Postmark (POST /email).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { plainHeaders, readBody, sendJson, sendRecorded, serveFake, waitUnlessClosed } from './http-helpers';
import { fixture } from './fixtures';

export type MailApi = 'resend' | 'postmark';

/** One message the fake accepted (a repeated Resend idempotency key is not a second one). */
export interface DeliveredMail {
  api: MailApi;
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  idempotencyKey: string | null;
}

export interface MailRequest {
  api: MailApi;
  to: string;
  status: number;
  idempotencyKey: string | null;
  headers: Record<string, string>;
}

export interface MailFake {
  /** Origin without trailing slash (MAIL_BASE_URL). */
  url: string;
  port: number;
  delivered: DeliveredMail[];
  requests: MailRequest[];
  reset(): void;
  close(): Promise<void>;
}

/** How long a message to a `slow` address waits before the answer. */
export const MAIL_SLOW_MS = 3000;

/**
 * The scenario is picked by a word in the recipient's address:
 * - `suppressed`: the provider refuses the recipient (Resend 422 validation_error; Postmark 422, ErrorCode 406 inactive recipient);
 * - `badaddress`: the address is refused as invalid (Resend 422; Postmark 422, ErrorCode 300);
 * - `fail5xx`: every try answers 500;
 * - `flaky`: the first try of each message (per idempotency key, else per recipient) answers 503, the next ones succeed;
 * - `slow`: answers after MAIL_SLOW_MS;
 * anything else is accepted. A missing key is a 401 as with the real APIs.
 * GET /__messages?to= lists delivered messages, GET /__requests?to= every request (for tests in workerd),
 * POST /__reset empties both.
 */
export async function startMailFake(port = 0): Promise<MailFake> {
  const delivered: DeliveredMail[] = [];
  const requests: MailRequest[] = [];
  const seenKeys = new Map<string, string>();
  const failedOnce = new Set<string>();
  let counter = 0;

  function record(api: MailApi, req: IncomingMessage, to: string, status: number, key: string | null) {
    requests.push({ api, to, status, idempotencyKey: key, headers: plainHeaders(req) });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    if (req.method === 'GET' && url.pathname === '/__messages') return sendRecorded(res, url, 'messages', delivered, 'to');
    if (req.method === 'GET' && url.pathname === '/__requests') return sendRecorded(res, url, 'requests', requests, 'to');
    if (req.method === 'POST' && url.pathname === '/__reset') {
      reset();
      return sendJson(res, 200, {});
    }
    const api: MailApi | null =
      req.method === 'POST' && url.pathname === '/emails' ? 'resend' : req.method === 'POST' && url.pathname === '/email' ? 'postmark' : null;
    if (!api) return sendJson(res, 404, { message: `Unknown request URL: ${req.method} ${url.pathname}` });

    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return api === 'resend'
        ? sendJson(res, 400, { statusCode: 400, name: 'invalid_json', message: 'The body is not valid JSON.' })
        : sendJson(res, 422, { ErrorCode: 402, Message: 'Received invalid JSON input.' });
    }
    const mail =
      api === 'resend'
        ? {
            from: String(body.from ?? ''),
            to: Array.isArray(body.to) ? String(body.to[0] ?? '') : String(body.to ?? ''),
            subject: String(body.subject ?? ''),
            text: String(body.text ?? ''),
            html: String(body.html ?? ''),
          }
        : {
            from: String(body.From ?? ''),
            to: String(body.To ?? ''),
            subject: String(body.Subject ?? ''),
            text: String(body.TextBody ?? ''),
            html: String(body.HtmlBody ?? ''),
          };
    const key =
      api === 'resend'
        ? (req.headers['idempotency-key'] as string | undefined) ?? null
        : ((body.Metadata as Record<string, unknown> | undefined)?.idempotency_key as string | undefined) ?? null;
    const answer = (status: number, payload: unknown) => {
      record(api, req, mail.to, status, key);
      sendJson(res, status, payload);
    };

    const authorized = api === 'resend' ? /^Bearer .+/.test(req.headers.authorization ?? '') : Boolean(req.headers['x-postmark-server-token']);
    if (!authorized) {
      return api === 'resend'
        ? answer(401, { statusCode: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header.' })
        : answer(401, { ErrorCode: 10, Message: 'No Account or Server API tokens were supplied in the HTTP headers.' });
    }
    if (!mail.to || !mail.from || !mail.subject || (!mail.text && !mail.html)) {
      return api === 'resend'
        ? answer(422, { statusCode: 422, name: 'validation_error', message: 'Missing `to`, `from`, `subject` or content.' })
        : answer(422, { ErrorCode: 300, Message: 'Invalid email request: missing To, From, Subject or body.' });
    }
    const to = mail.to.toLowerCase();
    if (to.includes('slow') && !(await waitUnlessClosed(res, MAIL_SLOW_MS))) return;
    if (to.includes('suppressed')) {
      return api === 'resend'
        ? answer(422, { statusCode: 422, name: 'validation_error', message: `The recipient ${mail.to} is on the suppression list.` })
        : answer(422, {
            ErrorCode: 406,
            Message: `You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ${mail.to}.`,
          });
    }
    if (to.includes('badaddress')) {
      return api === 'resend'
        ? answer(422, { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' })
        : answer(422, { ErrorCode: 300, Message: `Invalid 'To' address: '${mail.to}'.` });
    }
    if (to.includes('fail5xx')) {
      return api === 'resend'
        ? answer(500, { statusCode: 500, name: 'internal_server_error', message: 'An unexpected error occurred.' })
        : answer(500, { ErrorCode: 500, Message: 'Internal server error.' });
    }
    const once = key ?? to;
    if (to.includes('flaky') && !failedOnce.has(once)) {
      failedOnce.add(once);
      return api === 'resend'
        ? answer(503, { statusCode: 503, name: 'service_unavailable', message: 'Service temporarily unavailable.' })
        : answer(503, { ErrorCode: 503, Message: 'Service unavailable.' });
    }
    // Resend: the same idempotency key answers the first send's id and sends nothing.
    if (api === 'resend' && key && seenKeys.has(key)) return answer(200, { id: seenKeys.get(key) });
    counter += 1;
    const id = `fake-${api}-${counter}-${Date.now().toString(36)}`;
    if (api === 'resend' && key) seenKeys.set(key, id);
    delivered.push({ api, id, ...mail, idempotencyKey: key });
    // The providers' documented answers (fixtures/resend, fixtures/postmark) with this message's id, address and time.
    return api === 'resend'
      ? answer(200, { ...fixture('resend', 'send-email.json'), id })
      : answer(200, { ...fixture('postmark', 'email.json'), To: mail.to, SubmittedAt: new Date().toISOString(), MessageID: id });
  }

  function reset() {
    delivered.length = 0;
    requests.length = 0;
    seenKeys.clear();
    failedOnce.clear();
  }

  return serveFake(port, handle, { delivered, requests, reset });
}
