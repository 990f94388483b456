// Inline message boxes: success, error, info and warning; and the failed-load box with its "Try again".
import type { ReactNode } from "react";
import { Button } from "./button";
import { AlertCircleIcon, AlertTriangleIcon, CheckCircleIcon, InfoIcon } from "./icons";

export type AlertTone = "success" | "error" | "info" | "warning";

const ICONS = { success: CheckCircleIcon, error: AlertCircleIcon, info: InfoIcon, warning: AlertTriangleIcon };

export function Alert({ tone, title, children }: { tone: AlertTone; title?: string; children: ReactNode }) {
  const Icon = ICONS[tone];
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      <Icon />
      <div className="alert-body">
        {title ? <p className="alert-title">{title}</p> : null}
        <div>{children}</div>
      </div>
    </div>
  );
}

/** A list that failed to load: the reason and a button that loads it again. */
export function RetryAlert({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <Alert tone="error" title="Something went wrong">
      <p>{message}</p>
      <p className="banner-actions">
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      </p>
    </Alert>
  );
}
