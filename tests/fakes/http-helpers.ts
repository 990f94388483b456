// Small node:http helpers shared by the loopback fakes: listen, read a body, answer JSON, close cleanly.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface RunningServer {
  server: Server;
  port: number;
  /** http://127.0.0.1:PORT (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1; port 0 picks a free one. A handler that throws answers 500. */
export async function listen(port: number, handler: Handler): Promise<RunningServer> {
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: `fake crashed: ${String(error)}` } });
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    server,
    port: actualPort,
    origin: `http://127.0.0.1:${actualPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets from SDK clients would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Header values as plain strings (arrays joined), for recording requests. */
export function plainHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Waits `ms`, resolving true; resolves false early if the client goes away first
 * (so a fake never keeps answering a request nobody waits for).
 */
export function waitUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(!res.destroyed);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

/**
 * Starts a fake's server and hands back its state (`requests`, `config`, `reset`, ...) with where it listens:
 * `url` (the origin), `port`, and `close`.
 */
export async function serveFake<State extends object>(
  port: number,
  handler: Handler,
  state: State,
): Promise<State & { url: string; port: number; close(): Promise<void> }> {
  const running = await listen(port, handler);
  return { ...state, url: running.origin, port: running.port, close: running.close };
}

/**
 * Answers a fake's inspection GET (`/__requests`, `/__messages`): `{ [key]: recorded }`, only the entries whose
 * `field` equals the query parameter of that name when the query has it.
 */
export function sendRecorded<Entry>(res: ServerResponse, url: URL, key: string, recorded: Entry[], field: keyof Entry & string): void {
  const wanted = url.searchParams.get(field);
  sendJson(res, 200, { [key]: recorded.filter((entry) => wanted === null || entry[field] === wanted) });
}
