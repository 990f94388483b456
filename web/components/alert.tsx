// Inline message boxes: success, error, info and warning.
import type { ReactNode } from "react";
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
