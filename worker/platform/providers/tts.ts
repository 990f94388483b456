// The text-to-speech provider (ElevenLabs' POST /v1/text-to-speech/:voiceId), called only from the worker, with a time-out.
// The key never leaves the server; provider error texts are logged, never returned to clients.
import type { Env } from "../env";
import { log } from "../log";

export const DEFAULT_ELEVENLABS_BASE_URL = "https://api.elevenlabs.io";
export const TTS_TIMEOUT_MS = 15_000;
/** The voice model every reply is spoken with (the usage rows name it too), and its settings. */
export const TTS_MODEL = "eleven_monolingual_v1";
export const TTS_VOICE_SETTINGS = { stability: 0.5, similarity_boost: 0.75 } as const;

export type SpeechOutcome = { ok: true; audio: ReadableStream<Uint8Array>; contentType: string } | { ok: false };

export function ttsConfigured(env: Env): boolean {
  return typeof env.ELEVENLABS_API_KEY === "string" && env.ELEVENLABS_API_KEY.trim() !== "";
}

/** One synthesis; every failure is `{ok: false}` (the reason is logged). */
export async function synthesizeSpeech(env: Env, text: string, voiceId: string): Promise<SpeechOutcome> {
  const base = (env.ELEVENLABS_BASE_URL?.trim() || DEFAULT_ELEVENLABS_BASE_URL).replace(/\/+$/, "");
  let upstream: Response;
  try {
    upstream = await fetch(`${base}/v1/text-to-speech/${encodeURIComponent(voiceId)}`, {
      method: "POST",
      headers: { "xi-api-key": env.ELEVENLABS_API_KEY?.trim() ?? "", "Content-Type": "application/json", Accept: "audio/mpeg" },
      body: JSON.stringify({ text, model_id: TTS_MODEL, voice_settings: TTS_VOICE_SETTINGS }),
      signal: AbortSignal.timeout(TTS_TIMEOUT_MS),
    });
  } catch (error) {
    log.warn("tts: provider unreachable", {}, error);
    return { ok: false };
  }
  if (!upstream.ok || !upstream.body) {
    const detail = (await upstream.text().catch(() => "")).slice(0, 300);
    log.warn("tts: provider refused", { status: upstream.status, detail });
    return { ok: false };
  }
  return { ok: true, audio: upstream.body, contentType: upstream.headers.get("Content-Type") ?? "audio/mpeg" };
}
