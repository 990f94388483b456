// The chat's error view (spec §2, §8): the load error, an explanation, and the way back.
import type { ReactNode } from "react";
import { AlertCircleIcon } from "../../design/icons";
import { Placeholder } from "../../design/placeholder";
import "./chat.css";

export function ChatError({ title, note, children, action }: { title: string; note?: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Placeholder icon={AlertCircleIcon} title={title} heading="h1">
      {children ?? note ? <p className="placeholder-text">{children ?? note}</p> : null}
      {action}
    </Placeholder>
  );
}
