// Chat Voice: one sentence of a reply the server wrote (signed in its `done` event) spoken, metered by characters: a
// signed-in user's allowance, or a shared report's daily cap and the visitor's address (rate-limited).
import type { Env } from "../../platform/env";
import { getDb, type Db } from "../../platform/db/client";
import { countEvent, retryAfterSeconds, type Limit } from "../../platform/db/rate-limits";
import { ErrorCode } from "../../platform/errors";
import { reserveCall, userPayer, type Refusal } from "../../platform/metering/meter";
import type { logPaidCall } from "../../platform/metering/usage-log";
import { synthesizeSpeech, TTS_MODEL, ttsConfigured } from "../../platform/providers/tts";
import type { Payer } from "../../domain/metering";
import { getChatSubject } from "./queries";
import { verifyVoiceLine, type VoiceScope } from "./voice-lines";
import type { z } from "zod";
import { CHAT_TEXT, DEFAULT_VOICE_ID, type TtsRequest } from "./rules/chat";
import { PUBLIC_TTS_PER_IP, TTS_MAX_CHARS } from "./rules/limits";

export const TTS_NOT_CONFIGURED = "Voice is not configured on the server: use the browser's own speech.";
export const VOICE_TOOL_NAME = "Chat Voice";
export const TTS_NOT_SIGNED = "Voice speaks only the assistant's replies in this chat.";
export const TTS_TOO_LONG = `Text may be at most ${TTS_MAX_CHARS} characters.`;

type VoiceRefusal = { status: 401 | 403 | 404 | 413 | 429 | 501 | 502; code: string; message: string; retryAfter?: number };
/** Who asks: a signed-in user, or a visitor of a shared chat by address. */
export type Speaker = { userId: string | null; address: string };
/** What a spoken line needs of the request: where the call outlives it, and where a settled call's usage row goes. */
type Hooks = { waitUntil: (work: Promise<unknown>) => void; logPaidCall: (entry: Parameters<typeof logPaidCall>[1]) => void };

export type Spoken =
  | { ok: true; audio: ReadableStream<Uint8Array>; contentType: string }
  | { ok: false; refusal: VoiceRefusal }
  /** The meter's own refusal (answered as its 402): past a cap the page speaks with the browser's own voice, and says why. */
  | { ok: false; payment: Refusal };

/** A visitor's voice: the report first (one that does not exist counts nothing), then the address's rate limit. */
async function visitorVoice(db: Db, reportId: string | undefined, address: string): Promise<{ scope: VoiceScope; payer: Payer } | VoiceRefusal> {
  if (!reportId) return { status: 401, code: ErrorCode.unauthorized, message: "You must be signed in, or on a shared chat." };
  const subject = /^[0-9a-f-]{36}$/i.test(reportId) ? await getChatSubject(db, reportId) : null;
  if (!subject) return { status: 404, code: ErrorCode.notFound, message: CHAT_TEXT.chatNotFound };
  const limit: Limit = { key: `tts-ip:${address}`, ...PUBLIC_TTS_PER_IP };
  if ((await countEvent(db, limit)) > limit.max) {
    return { status: 429, code: ErrorCode.rateLimited, message: "Too many voice requests. Please wait a moment and try again.", retryAfter: retryAfterSeconds(limit) };
  }
  return { scope: { kind: "report", reportId: subject.reportId }, payer: { kind: "visitor", reportId: subject.reportId, address } };
}

/** Speaks `text` when it is a line the server signed for this speaker, reserved from the meter first. */
export async function speak(env: Env, { text, token, voice_id, report_id }: z.infer<typeof TtsRequest>, speaker: Speaker, hooks: Hooks): Promise<Spoken> {
  if (text.length > TTS_MAX_CHARS) return { ok: false, refusal: { status: 413, code: ErrorCode.payloadTooLarge, message: TTS_TOO_LONG } };
  const db = getDb(env);
  const visitor = speaker.userId ? null : await visitorVoice(db, report_id, speaker.address);
  if (visitor && "status" in visitor) return { ok: false, refusal: visitor };
  const scope: VoiceScope = visitor ? visitor.scope : { kind: "user", userId: speaker.userId! };
  if (!(await verifyVoiceLine(env, scope, { text, token }))) return { ok: false, refusal: { status: 403, code: "voice_line_refused", message: TTS_NOT_SIGNED } };
  if (!ttsConfigured(env)) return { ok: false, refusal: { status: 501, code: ErrorCode.notConfigured, message: TTS_NOT_CONFIGURED } };

  const reserved = await reserveCall(env, visitor?.payer ?? (await userPayer(env, db, speaker.userId!)), { kind: "tts", characters: text.length });
  if (!reserved.ok) return { ok: false, payment: reserved.refusal };
  // The call and its settle run under waitUntil: a visitor who leaves mid-call cancels the request, and without it
  // the settle never ran (the sweep then charges the estimate, which for voice is the real figure anyway).
  const { ticket } = reserved;
  const call = (async () => {
    const speech = await synthesizeSpeech(env, text, voice_id ?? DEFAULT_VOICE_ID);
    if (!speech.ok) {
      await ticket.release();
      return speech;
    }
    const usage = { kind: "tts" as const, characters: text.length };
    await ticket.settle(usage);
    hooks.logPaidCall({ userId: speaker.userId, toolName: VOICE_TOOL_NAME, model: TTS_MODEL, usage, detail: { characters: text.length, report_id: report_id ?? null } });
    return speech;
  })();
  hooks.waitUntil(call);
  const speech = await call;
  if (!speech.ok) return { ok: false, refusal: { status: 502, code: "tts_failed", message: CHAT_TEXT.voiceFailed } };
  return { ok: true, audio: speech.audio, contentType: speech.contentType };
}

