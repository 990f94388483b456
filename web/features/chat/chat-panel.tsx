// The chat both pages share: notices, the conversation, the question chips and the composer; voice follows the stream.
import { useState, type ReactNode } from "react";
import { FALLBACK_REASON_TEXT } from "../../../worker/features/chat/rules/chat";
import type { Chat } from "./use-chat";
import type { Voice } from "./use-voice";
import { Alert } from "../../design/alert";
import { Badge } from "../../design/badge";
import { ChatComposer } from "./chat-composer";
import { ChatMessageList } from "./chat-message-list";
import { QuestionChips } from "./question-chips";
import "./chat.css";

type Props = {
  chat: Chat;
  voice: Voice;
  assistantName: string;
  questions: string[];
  showChips: boolean;
  /** Above the conversation (the admin's system prompt). */
  children?: ReactNode;
};

export function ChatPanel({ chat, voice, assistantName, questions, showChips, children }: Props) {
  const [draft, setDraft] = useState("");
  async function send() {
    const text = draft;
    setDraft("");
    voice.stop();
    const sent = await chat.send(text);
    if (!sent) setDraft((current) => current || text);
  }
  return (
    <section className="chat-panel" aria-label="Chat">
      {children}
      <ChatNotices chat={chat} voiceError={voice.error} />
      <ChatMessageList lines={chat.lines} assistantName={assistantName} />
      <div className="chat-foot">
        {showChips ? <QuestionChips questions={questions} onPick={setDraft} disabled={chat.sending} /> : null}
        {chat.refusal ? (
          <Alert tone="error">
            <p>{chat.refusal}</p>
          </Alert>
        ) : null}
        <ChatComposer value={draft} onChange={setDraft} onSend={send} sending={chat.sending} />
      </div>
    </section>
  );
}

/** The spec's timed runtime notices, plus a lasting line whenever replies come from the local fallback. */
function ChatNotices({ chat, voiceError }: { chat: Chat; voiceError: string | null }) {
  const lasting = chat.fallback && chat.fallback !== "ai_failed" ? FALLBACK_REASON_TEXT[chat.fallback] : null;
  return (
    <div className="chat-notices">
      {chat.fallbackNotice ? (
        <Alert tone="warning">
          <p>{chat.fallbackNotice}</p>
        </Alert>
      ) : null}
      {chat.runtimeError ? (
        <Alert tone="error">
          <p>{chat.runtimeError}</p>
        </Alert>
      ) : null}
      {voiceError ? (
        <Alert tone="error">
          <p>{voiceError}</p>
        </Alert>
      ) : null}
      {chat.fallback ? (
        <p className="chat-fallback-line" role="status">
          <Badge tone="soon">Local fallback</Badge>
          <span>{lasting ?? "Replies now come from the local fallback system."}</span>
        </p>
      ) : null}
    </div>
  );
}
