// POST /api/tts: text to speech through ElevenLabs (the key never leaves the server); signed-in users or a shared chat.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireUser } from "../auth/middleware";
import { clientIp } from "../chat/load";
import type { AppEnv } from "../context";
import { getDb } from "../db/client";
import { getChatSubject } from "../db/chat";
import { countEvent, retryAfterSeconds, type Limit } from "../db/rate-limits";
import { CHAT_TEXT, DEFAULT_VOICE_ID, TTS_MODEL, TTS_VOICE_SETTINGS, TtsRequest } from "../domain/chat";
import { PUBLIC_TTS_PER_IP, TTS_MAX_CHARS } from "../domain/chat-limits";
import { apiError, ErrorCode } from "../errors";

export const DEFAULT_ELEVENLABS_BASE_URL = "https://api.elevenlabs.io";
export const TTS_TIMEOUT_MS = 15_000;
export const TTS_NOT_CONFIGURED = "Voice is not configured on the server: use the browser's own speech.";

export const ttsRoutes = new Hono<AppEnv>().post(
  "/",
  bodyLimit({ maxSize: 16 * 1024, onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, `Text may be at most ${TTS_MAX_CHARS} characters.`) }),
  // A signed-in user, or (no token) a visitor of a shared chat, rate-limited below.
  async (c, next) => (c.req.header("Authorization") ? requireUser(c, next) : next()),
  async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      return apiError(c, 400, ErrorCode.validation, "The request body must be JSON.");
    }
    const parsed = TtsRequest.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return apiError(c, 400, ErrorCode.validation, `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
    }
    const { text, voice_id, report_id } = parsed.data;
    if (text.length > TTS_MAX_CHARS) {
      return apiError(c, 413, ErrorCode.payloadTooLarge, `Text may be at most ${TTS_MAX_CHARS} characters.`);
    }
    const signedIn = Boolean(c.get("caller"));
    const db = getDb(c.env);
    if (!signedIn) {
      if (!report_id) return apiError(c, 401, ErrorCode.unauthorized, "You must be signed in, or on a shared chat.");
      const limit: Limit = { key: `tts-ip:${clientIp(c)}`, ...PUBLIC_TTS_PER_IP };
      if ((await countEvent(db, limit)) > limit.max) {
        c.header("Retry-After", String(retryAfterSeconds(limit)));
        return apiError(c, 429, ErrorCode.rateLimited, "Too many voice requests. Please wait a moment and try again.");
      }
      const subject = /^[0-9a-f-]{36}$/i.test(report_id) ? await getChatSubject(db, report_id) : null;
      if (!subject) return apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.chatNotFound);
    }
    const key = c.env.ELEVENLABS_API_KEY?.trim();
    if (!key) return apiError(c, 501, ErrorCode.notConfigured, TTS_NOT_CONFIGURED);

    const base = (c.env.ELEVENLABS_BASE_URL?.trim() || DEFAULT_ELEVENLABS_BASE_URL).replace(/\/+$/, "");
    let upstream: Response;
    try {
      upstream = await fetch(`${base}/v1/text-to-speech/${encodeURIComponent(voice_id ?? DEFAULT_VOICE_ID)}`, {
        method: "POST",
        headers: { "xi-api-key": key, "Content-Type": "application/json", Accept: "audio/mpeg" },
        body: JSON.stringify({ text, model_id: TTS_MODEL, voice_settings: TTS_VOICE_SETTINGS }),
        signal: AbortSignal.timeout(TTS_TIMEOUT_MS),
      });
    } catch (error) {
      console.warn("tts: provider unreachable", error);
      return apiError(c, 502, "tts_failed", CHAT_TEXT.voiceFailed);
    }
    if (!upstream.ok || !upstream.body) {
      console.warn(`tts: provider answered ${upstream.status}`, (await upstream.text().catch(() => "")).slice(0, 300));
      return apiError(c, 502, "tts_failed", CHAT_TEXT.voiceFailed);
    }
    return c.body(upstream.body, 200, {
      "Content-Type": upstream.headers.get("Content-Type") ?? "audio/mpeg",
      "Cache-Control": "no-store",
    });
  },
);
