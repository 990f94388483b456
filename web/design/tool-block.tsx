// A titled card on a scan tool's page (the audits, rank, citations and AI Visibility screens); styles in scan-results.css.
import type { ReactNode } from "react";

export function ToolBlock({ titleId, title, children }: { titleId: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="card card-pad audit-block" aria-labelledby={titleId}>
      <h2 className="audit-block-title" id={titleId}>
        {title}
      </h2>
      {children}
    </section>
  );
}
