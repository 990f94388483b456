// The conversation: assistant and user bubbles, the typing indicator, kept scrolled to the newest line.
import { useEffect, useRef } from "react";
import type { ChatLine } from "./use-chat";
import "./chat.css";

export function ChatMessageList({ lines, assistantName }: { lines: ChatLine[]; assistantName: string }) {
  const log = useRef<HTMLDivElement>(null);
  const last = lines[lines.length - 1];
  // Follow the newest words inside the log only (never scroll the page under the reader).
  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [lines.length, last?.content]);
  // A phone turned sideways or a notice appearing resizes the log: keep the newest line in view.
  useEffect(() => {
    const el = log.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => (el.scrollTop = el.scrollHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="chat-log" ref={log} role="log" aria-live="polite" aria-label="Conversation">
      {lines.map((line) =>
        line.pending && line.content === "" ? (
          <div key={line.id} className="chat-line is-assistant">
            <div className="chat-bubble chat-typing" role="status">
              <span className="visually-hidden">{assistantName} is typing…</span>
              <span aria-hidden="true" />
              <span aria-hidden="true" />
              <span aria-hidden="true" />
            </div>
          </div>
        ) : (
          <div key={line.id} className={`chat-line is-${line.role}`} data-testid={`chat-${line.role}`}>
            <p className="chat-who">{line.role === "user" ? "You" : assistantName}</p>
            <div className="chat-bubble">{line.content}</div>
          </div>
        ),
      )}
    </div>
  );
}
