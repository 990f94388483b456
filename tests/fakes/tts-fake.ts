// A loopback ElevenLabs text-to-speech API (POST /v1/text-to-speech/:voiceId → audio/mpeg), answering the documented
// audio and errors (fixtures/elevenlabs, through documented-answers.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { elevenLabsSpeech, elevenLabsUnauthorized, elevenLabsValidationError } from './documented-answers';
import { plainHeaders, readBody, sendJson, serveFake } from './http-helpers';

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

/** The fake's audio (fixtures/elevenlabs/text-to-speech.mp3): one silent MPEG-1 Layer III frame at the default output_format mp3_44100_128. */
export const FAKE_MP3: Uint8Array = elevenLabsSpeech();

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
      sendJson(res, 404, elevenLabsUnauthorized({ status: 'not_found', message: `Unknown request URL: ${req.method} ${path}` }));
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
      sendJson(res, 401, elevenLabsUnauthorized());
      return;
    }
    const text = body && typeof body === 'object' ? (body as { text?: unknown }).text : undefined;
    if (typeof text !== 'string' || text.trim() === '') {
      // The API's one documented error: a 422 HTTPValidationError naming the field.
      sendJson(res, 422, elevenLabsValidationError('text', 'Field required'));
      return;
    }
    // A text with SLOW_VOICE_MARK is answered after SLOW_VOICE_MS: tests leave before the answer, as a visitor who closes the page.
    if (text.includes(SLOW_VOICE_MARK)) await new Promise((resolve) => setTimeout(resolve, SLOW_VOICE_MS));
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(FAKE_MP3.byteLength) });
    res.end(Buffer.from(FAKE_MP3));
  }

  return serveFake(port, handle, {
    requests,
    reset() {
      requests.length = 0;
    },
  });
}
