// The block every page opens with: where the page sits (eyebrow), its title, one line on what it is for, and the
// page's main actions beside them.
import type { ReactNode } from "react";
import { BackLink } from "./back-link";

export function PageHeader({
  eyebrow,
  title,
  subtitle,
  subtitleLive = false,
  back,
  actions,
}: {
  eyebrow?: ReactNode;
  title: ReactNode;
  subtitle?: ReactNode;
  /** The subtitle changes with the data (a count): read out when it does. */
  subtitleLive?: boolean;
  /** A BackLink above the eyebrow. */
  back?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        {back}
        {eyebrow ? <p className="page-eyebrow">{eyebrow}</p> : null}
        <h1 className="page-title">{title}</h1>
        {subtitle ? (
          <p className="page-subtitle" aria-live={subtitleLive ? "polite" : undefined}>
            {subtitle}
          </p>
        ) : null}
      </div>
      {actions}
    </header>
  );
}

/** A tool's page head: the way back to the dashboard, 'Tools', the tool's name and what it does. */
export function ToolPageHeader({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <>
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <PageHeader eyebrow="Tools" title={title} subtitle={subtitle} />
    </>
  );
}
