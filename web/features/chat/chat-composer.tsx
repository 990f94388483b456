// The message box: Enter sends, Shift+Enter adds a line; Send is disabled while blank or while a reply is on its way.
import type { KeyboardEvent } from "react";
import { CHAT_MESSAGE_MAX_CHARS } from "../../../worker/features/chat/rules/limits";
import { Button } from "../../design/button";
import { ArrowRightIcon } from "../../design/icons";
import "./chat.css";

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  sending: boolean;
  placeholder?: string;
};

export function ChatComposer({ value, onChange, onSend, sending, placeholder = "Type your message..." }: Props) {
  const blank = value.trim() === "";
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (!blank && !sending) onSend();
    }
  }
  return (
    <form
      className="chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        if (!blank && !sending) onSend();
      }}
    >
      <label className="visually-hidden" htmlFor="chat-input">
        Message
      </label>
      <textarea
        id="chat-input"
        className="input chat-input"
        rows={1}
        value={value}
        maxLength={CHAT_MESSAGE_MAX_CHARS}
        placeholder={placeholder}
        disabled={sending}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <Button type="submit" variant="primary" disabled={blank || sending} aria-label="Send message">
        <ArrowRightIcon />
        <span className="chat-send-label">Send</span>
      </Button>
    </form>
  );
}
