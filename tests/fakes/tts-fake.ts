// A loopback ElevenLabs-shaped text-to-speech API (POST /v1/text-to-speech/:voiceId → audio/mpeg).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, plainHeaders, readBody, sendJson } from './http-helpers';

export interface TtsRequest {
  voiceId: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface TtsFake {
  /** Origin without trailing slash; requests go to `${url}/v1/text-to-speech/:voiceId`. */
  url: string;
  port: number;
  requests: TtsRequest[];
  reset(): void;
  close(): Promise<void>;
}

/** One silent MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz): 417 bytes that start like a real MP3. */
export const FAKE_MP3: Uint8Array = (() => {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return frame;
})();

export const SLOW_VOICE_MARK = '[fake:slow]';
export const SLOW_VOICE_MS = 1500;

const PATH = /^\/v1\/text-to-speech\/([^/]+)(?:\/stream)?$/;

export async function startTtsFake(port = 0): Promise<TtsFake> {
  const requests: TtsRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    // Tests inside workerd cannot see this process: they count what the fake received over loopback.
    if (req.method === 'GET' && path === '/__requests') {
      sendJson(res, 200, { requests });
      return;
    }
    const match = PATH.exec(path);
    if (req.method !== 'POST' || !match) {
      sendJson(res, 404, { detail: { status: 'not_found', message: `Unknown request URL: ${req.method} ${path}` } });
      return;
    }
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // recorded as text
    }
    const voiceId = decodeURIComponent(match[1]!);
    requests.push({ voiceId, body, headers: plainHeaders(req) });

    if (!req.headers['xi-api-key']) {
      sendJson(res, 401, { detail: { status: 'needs_authorization', message: 'Missing xi-api-key header.' } });
      return;
    }
    const text = body && typeof body === 'object' ? (body as { text?: unknown }).text : undefined;
    if (typeof text !== 'string' || text.trim() === '') {
      sendJson(res, 400, { detail: { status: 'invalid_text', message: 'A non-empty "text" field is required.' } });
      return;
    }
    // A text with SLOW_VOICE_MARK is answered after SLOW_VOICE_MS: tests leave before the answer, as a visitor who closes the page.
    if (text.includes(SLOW_VOICE_MARK)) await new Promise((resolve) => setTimeout(resolve, SLOW_VOICE_MS));
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(FAKE_MP3.byteLength) });
    res.end(Buffer.from(FAKE_MP3));
  }

  const running = await listen(port, handle);
  return {
    url: running.origin,
    port: running.port,
    requests,
    reset() {
      requests.length = 0;
    },
    close: running.close,
  };
}
