// A loopback Cloudflare Turnstile siteverify (POST /turnstile/v0/siteverify, form-encoded secret, response, remoteip),
// answering as Cloudflare documents: {success, "error-codes"}. The token decides: FAKE_TURNSTILE_PASS passes, 'down'
// answers 500, anything else fails with invalid-input-response; a wrong secret fails with invalid-input-secret.
import { listen, readBody, sendJson } from './http-helpers';
import { FAKE_TURNSTILE_DOWN, FAKE_TURNSTILE_PASS, FAKE_TURNSTILE_SECRET } from './turnstile-data';

export * from './turnstile-data';

export interface TurnstileRequest {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

export interface TurnstileFake {
  url: string;
  requests: TurnstileRequest[];
  reset(): void;
  close(): Promise<void>;
}

export async function startTurnstileFake(port = 0): Promise<TurnstileFake> {
  const requests: TurnstileRequest[] = [];
  const running = await listen(port, async (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/turnstile/v0/siteverify')) return sendJson(res, 404, { error: 'not found' });
    const form = new URLSearchParams(await readBody(req));
    const seen = { secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') };
    requests.push(seen);
    if (seen.response === FAKE_TURNSTILE_DOWN) return sendJson(res, 500, { success: false, 'error-codes': ['internal-error'] });
    if (seen.secret !== FAKE_TURNSTILE_SECRET) return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-secret'] });
    if (seen.response !== FAKE_TURNSTILE_PASS) return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-response'] });
    return sendJson(res, 200, { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost', 'error-codes': [] });
  });
  return {
    url: running.origin,
    requests,
    reset: () => void requests.splice(0),
    close: () => running.close(),
  };
}
