// A titled card on a scan tool's page (the audits, rank, citations and AI Visibility screens); styles in scan-results.css.
import type { ReactNode } from "react";

export function ToolBlock({ titleId, title, aside, children }: { titleId: string; title: ReactNode; aside?: ReactNode; children: ReactNode }) {
  const heading = (
    <h2 className="audit-block-title" id={titleId}>
      {title}
    </h2>
  );
  return (
    <section className="card card-pad audit-block" aria-labelledby={titleId}>
      {/* What stands beside the title (a filter, a count, a badge) shares its row. */}
      {aside ? (
        <div className="cit-head">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
