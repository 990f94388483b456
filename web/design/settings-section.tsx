// A titled settings section: heading, one line on what it is for, and its card (Account page sections).
import { useId, type ReactNode } from "react";

export function SettingsSection({ id, title, description, children }: { id?: string; title: string; description?: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="section" id={id} aria-labelledby={titleId}>
      <h2 className="section-title" id={titleId}>
        {title}
      </h2>
      <div className="card card-pad settings-card">
        {description ? <p className="settings-description">{description}</p> : null}
        {children}
      </div>
    </section>
  );
}
