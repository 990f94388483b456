// A titled settings section: heading, one line on what it is for, and its card (Account page sections).
import type { ReactNode } from "react";
import { PageSection } from "./page-section";

export function SettingsSection({ id, title, description, children }: { id?: string; title: string; description?: string; children: ReactNode }) {
  return (
    <PageSection id={id} title={title}>
      <div className="card card-pad settings-card">
        {description ? <p className="settings-description">{description}</p> : null}
        {children}
      </div>
    </PageSection>
  );
}
