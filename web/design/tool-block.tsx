// A titled card on a scan tool's page (the audits, rank, citations and AI Visibility screens), and a history row's
// "Shown" or Open; styles in scan-results.css.
import type { ReactNode } from "react";
import { Button } from "./button";

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

/** A history row's last cell (scans and audits): "Shown" for the result on screen, else Open (and what follows it). */
export function ShownOrOpen({ shown, onOpen, children = null }: { shown: boolean; onOpen: () => void; children?: ReactNode }) {
  if (shown) return <span className="audit-muted">Shown</span>;
  return (
    <>
      <Button size="sm" variant="ghost" onClick={onOpen}>
        Open
      </Button>
      {children}
    </>
  );
}
