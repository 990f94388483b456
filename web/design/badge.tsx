// Small pill labels: 'New', 'Coming Soon', 'Admin', 'View Mode', and states (success, warning, danger).
import type { ReactNode } from "react";

export type BadgeTone = "new" | "soon" | "admin" | "view" | "success" | "warning" | "danger";

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
