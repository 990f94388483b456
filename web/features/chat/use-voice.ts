// Chat voice: speaks a finished reply sentence by sentence; ElevenLabs via /api/tts (each sentence carries the server's
// signature: voice speaks only what the assistant said), else the browser.
import { useCallback, useEffect, useRef, useState } from "react";
import { CHAT_TEXT, DEFAULT_VOICE_ID, SEND_FAILED_NOTICE_MS, type VoiceLine } from "../../../worker/features/chat/rules/chat";
import { authedFetch } from "../../lib/api";
import { useTimedMessage } from "../../lib/use-timed-message";

export type Voice = {
  enabled: boolean;
  setEnabled: (on: boolean) => void;
  voiceId: string;
  setVoiceId: (id: string) => void;
  /** Speaks a finished reply: its sentences as the server signed them. */
  speak: (lines: VoiceLine[]) => void;
  /** Stop at once and forget what was queued. */
  stop: () => void;
  /** True once the server said it has no voice provider (501) or its voice budget is used (402): the browser speaks. */
  browserSpeech: boolean;
  /** Why the browser speaks when a budget stopped the server's voice. */
  browserReason: string | null;
  error: string | null;
};

export function useVoice(opts: { reportId?: string; signedIn: boolean }): Voice {
  const [enabled, setEnabledState] = useState(false);
  const [voiceId, setVoiceId] = useState(DEFAULT_VOICE_ID);
  const [browserSpeech, setBrowserSpeech] = useState(false);
  const [browserReason, setBrowserReason] = useState<string | null>(null);
  const [error, showError] = useTimedMessage(SEND_FAILED_NOTICE_MS);
  const state = useRef({ enabled: false, generation: 0, chain: Promise.resolve(), audio: null as HTMLAudioElement | null, browser: false, voiceId: DEFAULT_VOICE_ID });
  state.current.voiceId = voiceId;

  const stop = useCallback(() => {
    const s = state.current;
    s.generation += 1;
    s.chain = Promise.resolve();
    s.audio?.pause();
    s.audio = null;
    if (typeof speechSynthesis !== "undefined") speechSynthesis.cancel();
  }, []);

  useEffect(() => stop, [stop]);

  const speakBrowser = (text: string, generation: number) =>
    new Promise<void>((resolve) => {
      if (typeof speechSynthesis === "undefined" || typeof SpeechSynthesisUtterance === "undefined" || generation !== state.current.generation) {
        resolve();
        return;
      }
      const u = new SpeechSynthesisUtterance(text);
      u.onend = () => resolve();
      u.onerror = () => resolve();
      speechSynthesis.speak(u);
    });

  const fetchAudio = useCallback(
    async (line: VoiceLine): Promise<Blob | "browser" | null> => {
      const s = state.current;
      if (s.browser) return "browser";
      try {
        const res = await authedFetch("/api/tts", {
          method: "POST",
          json: { text: line.text, token: line.token, voice_id: s.voiceId, ...(opts.reportId ? { report_id: opts.reportId } : {}) },
          headers: { Accept: "audio/mpeg" },
          ...(opts.signedIn ? {} : { accessToken: null, viewAs: false }),
          timeoutMs: 20_000,
        });
        if (res.status === 501 || res.status === 402) {
          // No provider, or a budget (the user's, the report's, the daily ceiling) stopped it: the browser speaks.
          s.browser = true;
          setBrowserSpeech(true);
          if (res.status === 402) {
            const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
            setBrowserReason(body?.error?.message ?? null);
          }
          return "browser";
        }
        if (!res.ok) throw new Error(`tts ${res.status}`);
        return await res.blob();
      } catch {
        showError(CHAT_TEXT.voiceFailed);
        return null;
      }
    },
    [opts.reportId, opts.signedIn, showError],
  );

  const say = useCallback(
    (line: VoiceLine) => {
      const s = state.current;
      const generation = s.generation;
      const sentence = line.text;
      // Fetch now (in parallel with what is playing), play in order.
      const audio = fetchAudio(line);
      s.chain = s.chain.then(async () => {
        const got = await audio;
        if (generation !== s.generation || !got) return;
        if (got === "browser") return speakBrowser(sentence, generation);
        const url = URL.createObjectURL(got);
        const player = new Audio(url);
        s.audio = player;
        await new Promise<void>((resolve) => {
          player.onended = () => resolve();
          player.onerror = () => resolve();
          player.onpause = () => resolve();
          player.play().catch(() => resolve());
        });
        URL.revokeObjectURL(url);
      });
    },
    [fetchAudio],
  );

  const speak = useCallback(
    (lines: VoiceLine[]) => {
      if (!state.current.enabled) return;
      lines.forEach(say);
    },
    [say],
  );

  const setEnabled = useCallback(
    (on: boolean) => {
      state.current.enabled = on;
      setEnabledState(on);
      if (!on) stop();
    },
    [stop],
  );

  return { enabled, setEnabled, voiceId, setVoiceId, speak, stop, browserSpeech, browserReason, error };
}
