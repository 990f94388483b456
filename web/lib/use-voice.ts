// Chat voice: speaks each complete sentence of a reply while the rest still streams; ElevenLabs via /api/tts, else the browser.
import { useCallback, useEffect, useRef, useState } from "react";
import { CHAT_TEXT, DEFAULT_VOICE_ID, SEND_FAILED_NOTICE_MS, takeSentences } from "../../worker/domain/chat";
import { authedFetch } from "./api";
import { useTimedMessage } from "./use-timed-message";

export type Voice = {
  enabled: boolean;
  setEnabled: (on: boolean) => void;
  voiceId: string;
  setVoiceId: (id: string) => void;
  /** Streamed text of the reply being spoken. */
  feed: (text: string) => void;
  /** The reply is complete: speak what is left. */
  flush: () => void;
  /** Stop at once and forget what was queued. */
  stop: () => void;
  /** True once the server said it has no voice provider (501): the browser speaks. */
  browserSpeech: boolean;
  error: string | null;
};

export function useVoice(opts: { reportId?: string; signedIn: boolean }): Voice {
  const [enabled, setEnabledState] = useState(false);
  const [voiceId, setVoiceId] = useState(DEFAULT_VOICE_ID);
  const [browserSpeech, setBrowserSpeech] = useState(false);
  const [error, showError] = useTimedMessage(SEND_FAILED_NOTICE_MS);
  const state = useRef({ enabled: false, buffer: "", generation: 0, chain: Promise.resolve(), audio: null as HTMLAudioElement | null, browser: false, voiceId: DEFAULT_VOICE_ID });
  state.current.voiceId = voiceId;

  const stop = useCallback(() => {
    const s = state.current;
    s.generation += 1;
    s.buffer = "";
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
    async (text: string): Promise<Blob | "browser" | null> => {
      const s = state.current;
      if (s.browser) return "browser";
      try {
        const res = await authedFetch("/api/tts", {
          method: "POST",
          json: { text, voice_id: s.voiceId, ...(opts.reportId ? { report_id: opts.reportId } : {}) },
          headers: { Accept: "audio/mpeg" },
          ...(opts.signedIn ? {} : { accessToken: null, viewAs: false }),
          timeoutMs: 20_000,
        });
        if (res.status === 501) {
          s.browser = true;
          setBrowserSpeech(true);
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
    (sentence: string) => {
      const s = state.current;
      const generation = s.generation;
      // Fetch now (in parallel with what is playing), play in order.
      const audio = fetchAudio(sentence);
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

  const feed = useCallback(
    (text: string) => {
      const s = state.current;
      if (!s.enabled) return;
      s.buffer += text;
      const { sentences, rest } = takeSentences(s.buffer);
      s.buffer = rest;
      sentences.forEach(say);
    },
    [say],
  );

  const flush = useCallback(() => {
    const s = state.current;
    const rest = s.buffer.trim();
    s.buffer = "";
    if (s.enabled && rest) say(rest);
  }, [say]);

  const setEnabled = useCallback(
    (on: boolean) => {
      state.current.enabled = on;
      setEnabledState(on);
      if (!on) stop();
    },
    [stop],
  );

  return { enabled, setEnabled, voiceId, setVoiceId, feed, flush, stop, browserSpeech, error };
}
