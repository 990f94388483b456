// A loopback webhook receiver (issue 21): records every delivery (headers, raw body) and answers as told. The scenario
// is picked by a word in the path (`/hooks/<name>`): `fail500` answers 500, `timeout` answers after WEBHOOK_SLOW_MS,
// `flaky` answers 500 to the first try of each delivery id and 200 after; anything else 200. POST /__answer
// {path, status} makes a path answer `status` from now on (0: back to its word); GET /__requests?path= lists what
// arrived (for tests in workerd), POST /__reset forgets everything.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, plainHeaders, readBody, sendJson, sendRecorded, waitUnlessClosed } from './http-helpers';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  at: number;
}

export interface WebhookReceiverFake {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Resolves at the first delivery to `path` whose body has `type` (for the bench). */
  waitFor(path: string, predicate: (r: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  reset(): void;
  close(): Promise<void>;
}

/** How long a `timeout` path waits before answering (longer than the worker's time-out in tests). */
export const WEBHOOK_SLOW_MS = 3000;

export async function startWebhookReceiverFake(port = 0): Promise<WebhookReceiverFake> {
  const received: ReceivedWebhook[] = [];
  const answers = new Map<string, number>();
  const triedOnce = new Set<string>();
  const waiters: { path: string; predicate: (r: ReceivedWebhook) => boolean; resolve: (r: ReceivedWebhook) => void }[] = [];

  function reset() {
    received.length = 0;
    answers.clear();
    triedOnce.clear();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    if (req.method === 'GET' && url.pathname === '/__requests') return sendRecorded(res, url, 'requests', received, 'path');
    if (req.method === 'POST' && url.pathname === '/__reset') {
      reset();
      return sendJson(res, 200, {});
    }
    if (req.method === 'POST' && url.pathname === '/__answer') {
      const { path, status } = JSON.parse(await readBody(req)) as { path: string; status: number };
      if (status) answers.set(path, status);
      else answers.delete(path);
      return sendJson(res, 200, {});
    }
    if (req.method !== 'POST' || !url.pathname.startsWith('/hooks/')) return sendJson(res, 404, { error: 'not a hook' });
    const body = await readBody(req);
    const headers = plainHeaders(req);
    const delivery = headers['porchlight-delivery'] ?? '';
    let status = 200;
    if (answers.has(url.pathname)) status = answers.get(url.pathname)!;
    else if (url.pathname.includes('fail500')) status = 500;
    else if (url.pathname.includes('flaky') && !triedOnce.has(delivery)) {
      triedOnce.add(delivery);
      status = 500;
    }
    const entry: ReceivedWebhook = { path: url.pathname, headers, body, status, at: Date.now() };
    received.push(entry);
    for (const w of waiters.splice(0)) {
      if (w.path === entry.path && w.predicate(entry)) w.resolve(entry);
      else waiters.push(w);
    }
    if (url.pathname.includes('timeout') && !answers.has(url.pathname)) {
      if (!(await waitUnlessClosed(res, WEBHOOK_SLOW_MS))) return;
    }
    sendJson(res, status, { received: status < 300 });
  }

  const running = await listen(port, handle);
  return {
    url: running.origin,
    port: running.port,
    received,
    waitFor(path, predicate, timeoutMs = 10_000) {
      const found = received.find((r) => r.path === path && predicate(r));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no webhook at ${path} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ path, predicate, resolve: (r) => (clearTimeout(timer), resolve(r)) });
      });
    },
    reset,
    close: running.close,
  };
}
