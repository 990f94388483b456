// One chat conversation in the page: turns, sending with a streamed reply, the fallback switch and its notices, reset.
import { useCallback, useRef, useState } from "react";
import {
  CHAT_TEXT,
  FALLBACK_NOTICE_MS,
  SEND_FAILED_NOTICE_MS,
  type ChatStreamEvent,
  type FallbackReason,
  type VoiceLine,
} from "../../../worker/features/chat/rules/chat";
import { ApiError, authedFetch, readApiResponse, NETWORK_MESSAGE } from "../../lib/api";
import { readChatStream } from "./chat-stream";
import { useTimedMessage } from "../../lib/use-timed-message";

export type ChatLine = { id: string; role: "user" | "assistant"; content: string; pending?: boolean };

export type ChatOptions = {
  /** POST target, e.g. /api/shared/chat/{id}/messages. */
  endpoint: string;
  greeting: string;
  /** Known at load: no AI key on the server, or the report's daily cap reached. */
  initialFallback: FallbackReason | null;
  /** Public chat: send a conversation id so the transcript is kept per visitor. */
  visitorSessions: boolean;
  /** Public chat: no bearer token. */
  anonymous?: boolean;
  onDelta?: (text: string) => void;
  onReplace?: () => void;
  /** The reply is complete: its sentences, signed by the server for voice. */
  onDone?: (voice: VoiceLine[]) => void;
};

let seq = 0;
const lineId = () => `line-${++seq}`;

function greetingLine(greeting: string): ChatLine {
  return { id: lineId(), role: "assistant", content: greeting };
}

export function useChat(opts: ChatOptions) {
  const [lines, setLines] = useState<ChatLine[]>(() => [greetingLine(opts.greeting)]);
  const [sending, setSending] = useState(false);
  const [fallback, setFallback] = useState<FallbackReason | null>(opts.initialFallback);
  const [fallbackNotice, showFallbackNotice] = useTimedMessage(FALLBACK_NOTICE_MS);
  const [runtimeError, showRuntimeError] = useTimedMessage(SEND_FAILED_NOTICE_MS);
  const [refusal, setRefusal] = useState<string | null>(null);
  const sessionId = useRef<string>(crypto.randomUUID());
  const abort = useRef<AbortController | null>(null);
  const optsRef = useRef(opts);
  optsRef.current = opts;

  const patchLast = (patch: (line: ChatLine) => ChatLine) =>
    setLines((all) => all.map((l, i) => (i === all.length - 1 ? patch(l) : l)));

  const switchToFallback = (reason: FallbackReason) => {
    setFallback((current) => current ?? reason);
    if (reason === "ai_failed") {
      showFallbackNotice(CHAT_TEXT.fallbackNotice);
      showRuntimeError(CHAT_TEXT.sendFailed);
    }
  };

  const send = useCallback(
    async (text: string) => {
      const content = text.trim();
      if (!content || sending) return false;
      setRefusal(null);
      const history = [...lines.filter((l) => !l.pending), { id: lineId(), role: "user" as const, content }];
      setLines([...history, { id: lineId(), role: "assistant", content: "", pending: true }]);
      setSending(true);
      const controller = new AbortController();
      abort.current = controller;
      const o = optsRef.current;
      try {
        const res = await authedFetch(o.endpoint, {
          method: "POST",
          stream: true,
          signal: controller.signal,
          timeoutMs: 30_000,
          ...(o.anonymous ? { accessToken: null, viewAs: false } : {}),
          json: {
            messages: history.map(({ role, content: c }) => ({ role, content: c })),
            ...(o.visitorSessions ? { session_id: sessionId.current } : {}),
            ...(fallback ? { fallback: true } : {}),
          },
        });
        if (!res.ok) await readApiResponse(res);
        let voice: VoiceLine[] = [];
        for await (const event of readChatStream(res)) {
          apply(event);
          if (event.type === "done") voice = event.voice ?? [];
        }
        optsRef.current.onDone?.(voice);
        return true;
      } catch (error) {
        if (controller.signal.aborted) return false;
        // Refused (limits) or unreachable: take the question back out and say why.
        setLines(history.slice(0, -1));
        setRefusal(error instanceof ApiError ? error.message : NETWORK_MESSAGE);
        return false;
      } finally {
        if (abort.current === controller) abort.current = null;
        setSending(false);
      }

      function apply(event: ChatStreamEvent) {
        switch (event.type) {
          case "start":
            if (event.mode === "fallback" && event.reason) switchToFallback(event.reason);
            break;
          case "delta":
            patchLast((l) => ({ ...l, content: l.content + event.text }));
            optsRef.current.onDelta?.(event.text);
            break;
          case "replace":
            optsRef.current.onReplace?.();
            patchLast((l) => ({ ...l, content: event.text }));
            switchToFallback(event.reason);
            optsRef.current.onDelta?.(event.text);
            break;
          case "done":
            patchLast((l) => ({ ...l, content: event.content, pending: false }));
            if (event.mode === "fallback" && event.reason) switchToFallback(event.reason);
            break;
        }
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [lines, sending, fallback],
  );

  /** Back to the greeting only (spec §4); a public reset starts a new conversation. The fallback switch stays. */
  const reset = useCallback(() => {
    abort.current?.abort();
    sessionId.current = crypto.randomUUID();
    setRefusal(null);
    setSending(false);
    setLines([greetingLine(optsRef.current.greeting)]);
  }, []);

  return { lines, sending, send, reset, fallback, fallbackNotice, runtimeError, refusal, dismissRefusal: () => setRefusal(null) };
}

export type Chat = ReturnType<typeof useChat>;
