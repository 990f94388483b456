// A loopback Cloudflare Turnstile siteverify (POST /turnstile/v0/siteverify, form-encoded secret, response, remoteip),
// answering with Cloudflare's documented examples (fixtures/turnstile-siteverify.json, source named there). The token
// decides: FAKE_TURNSTILE_PASS passes with the success example as it is, fakeTurnstilePass(host) with its hostname set
// to `host`; 'down' answers 500; anything else fails with the failure example; a wrong secret with invalid-input-secret.
import { listen, readBody, sendJson } from './http-helpers';
import { FAKE_TURNSTILE_DOWN, FAKE_TURNSTILE_PASS, FAKE_TURNSTILE_SECRET } from './turnstile-data';
import documented from './fixtures/turnstile-siteverify.json';

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

/** The documented answer for a token: the success example (hostname from the token when it names one) or a failure. */
export function siteverifyAnswer(secret: string | null, token: string | null): { status: number; body: Record<string, unknown> } {
  if (token === FAKE_TURNSTILE_DOWN) return { status: 500, body: { success: false, 'error-codes': ['internal-error'] } };
  if (secret !== FAKE_TURNSTILE_SECRET) return { status: 200, body: { ...documented.failure, 'error-codes': ['invalid-input-secret'] } };
  if (token === FAKE_TURNSTILE_PASS) return { status: 200, body: documented.success };
  if (token?.startsWith(`${FAKE_TURNSTILE_PASS}@`)) {
    return { status: 200, body: { ...documented.success, challenge_ts: new Date().toISOString(), hostname: token.slice(FAKE_TURNSTILE_PASS.length + 1) } };
  }
  return { status: 200, body: documented.failure };
}

export async function startTurnstileFake(port = 0): Promise<TurnstileFake> {
  const requests: TurnstileRequest[] = [];
  const running = await listen(port, async (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/turnstile/v0/siteverify')) return sendJson(res, 404, { error: 'not found' });
    const form = new URLSearchParams(await readBody(req));
    const seen = { secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') };
    requests.push(seen);
    const answer = siteverifyAnswer(seen.secret, seen.response);
    return sendJson(res, answer.status, answer.body);
  });
  return {
    url: running.origin,
    requests,
    reset: () => void requests.splice(0),
    close: () => running.close(),
  };
}
