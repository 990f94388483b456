// One chat toolbar button: an icon and a label (icon only on phones), optionally a pressed toggle.
import type { ComponentType } from "react";
import "./chat.css";

type Props = {
  icon: ComponentType<{ size?: "sm" | "md" }>;
  label: string;
  pressed?: boolean;
  onClick: () => void;
};

export function ChatTool({ icon: Icon, label, pressed, onClick }: Props) {
  return (
    <button type="button" className="chat-tool" aria-pressed={pressed} title={label} onClick={onClick}>
      <Icon size="sm" />
      <span>{label}</span>
    </button>
  );
}
