// POST /api/tts: speaks one sentence of a chat reply the server wrote (signed in its `done` event), metered by
// characters: a signed-in user's allowance, or a shared report's daily cap and the visitor's address.
import { waitUntil } from "../../platform/context";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireUser } from "../../platform/auth/middleware";
import { clientIp } from "./load";
import { verifyVoiceLine, type VoiceScope } from "./voice-lines";
import type { AppEnv } from "../../platform/context";
import { getDb } from "../../platform/db/client";
import { getChatSubject } from "./queries";
import { countEvent, retryAfterSeconds, type Limit } from "../../platform/db/rate-limits";
import { CHAT_TEXT, DEFAULT_VOICE_ID, TtsRequest } from "./rules/chat";
import { PUBLIC_TTS_PER_IP, TTS_MAX_CHARS } from "./rules/limits";
import type { Payer } from "../../domain/metering";
import { apiError, ErrorCode } from "../../platform/errors";
import { logPaidCall } from "../../platform/metering/usage-log";
import { reserveCall, userPayer } from "../../platform/metering/meter";
import { synthesizeSpeech, TTS_MODEL, ttsConfigured } from "../../platform/providers/tts";
import { validate } from "../../platform/validate";

export const TTS_NOT_CONFIGURED = "Voice is not configured on the server: use the browser's own speech.";
export const VOICE_TOOL_NAME = "Chat Voice";
export const TTS_NOT_SIGNED = "Voice speaks only the assistant's replies in this chat.";

export const ttsRoutes = new Hono<AppEnv>().post(
  "/",
  bodyLimit({ maxSize: 16 * 1024, onError: (c) => apiError(c, 413, ErrorCode.payloadTooLarge, `Text may be at most ${TTS_MAX_CHARS} characters.`) }),
  // A signed-in user, or (no token) a visitor of a shared chat, rate-limited below.
  async (c, next) => (c.req.header("Authorization") ? requireUser(c, next) : next()),
  validate("json", TtsRequest),
  async (c) => {
    const { text, token, voice_id, report_id } = c.req.valid("json");
    if (text.length > TTS_MAX_CHARS) {
      return apiError(c, 413, ErrorCode.payloadTooLarge, `Text may be at most ${TTS_MAX_CHARS} characters.`);
    }
    const caller = c.get("caller");
    const db = getDb(c.env);
    let scope: VoiceScope;
    let payer: Payer | null = null;
    if (caller) {
      scope = { kind: "user", userId: caller.id };
    } else {
      if (!report_id) return apiError(c, 401, ErrorCode.unauthorized, "You must be signed in, or on a shared chat.");
      // The report first: a request for a report that does not exist counts nothing.
      const subject = /^[0-9a-f-]{36}$/i.test(report_id) ? await getChatSubject(db, report_id) : null;
      if (!subject) return apiError(c, 404, ErrorCode.notFound, CHAT_TEXT.chatNotFound);
      const address = clientIp(c);
      const limit: Limit = { key: `tts-ip:${address}`, ...PUBLIC_TTS_PER_IP };
      if ((await countEvent(db, limit)) > limit.max) {
        c.header("Retry-After", String(retryAfterSeconds(limit)));
        return apiError(c, 429, ErrorCode.rateLimited, "Too many voice requests. Please wait a moment and try again.");
      }
      scope = { kind: "report", reportId: subject.reportId };
      payer = { kind: "visitor", reportId: subject.reportId, address };
    }
    if (!(await verifyVoiceLine(c.env, scope, { text, token }))) return apiError(c, 403, "voice_line_refused", TTS_NOT_SIGNED);
    if (!ttsConfigured(c.env)) return apiError(c, 501, ErrorCode.notConfigured, TTS_NOT_CONFIGURED);

    const reserved = await reserveCall(c.env, payer ?? (await userPayer(c.env, db, caller!.id)), { kind: "tts", characters: text.length });
    // Past a cap the page speaks with the browser's own voice, as without a key, and says why.
    if (!reserved.ok) return apiError(c, 402, reserved.refusal.code, reserved.refusal.message);
    // The call and its settle run under waitUntil: a visitor who leaves mid-call cancels the request, and without it
    // the settle never ran (the sweep then charges the estimate, which for voice is the real figure anyway).
    const { ticket } = reserved;
    const call = (async () => {
      const speech = await synthesizeSpeech(c.env, text, voice_id ?? DEFAULT_VOICE_ID);
      if (!speech.ok) {
        await ticket.release();
        return speech;
      }
      const usage = { kind: "tts" as const, characters: text.length };
      await ticket.settle(usage);
      logPaidCall(c, { userId: caller?.id ?? null, toolName: VOICE_TOOL_NAME, model: TTS_MODEL, usage, detail: { characters: text.length, report_id: report_id ?? null } });
      return speech;
    })();
    waitUntil(c, call);
    const speech = await call;
    if (!speech.ok) return apiError(c, 502, "tts_failed", CHAT_TEXT.voiceFailed);
    return c.body(speech.audio, 200, { "Content-Type": speech.contentType, "Cache-Control": "no-store" });
  },
);
