// One integration on /integrations: icon, title, what it does, its status or main action, then its content.
import { useId, type ComponentType, type ReactNode } from "react";
import "./integrations.css";

export function IntegrationCard({ icon: Icon, title, description, aside, children }: { icon: ComponentType; title: string; description: string; aside: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="card card-pad integration-card" aria-labelledby={titleId}>
      <div className="integration-head">
        <span className="placeholder-icon">
          <Icon />
        </span>
        <div>
          <h2 className="integration-title" id={titleId}>
            {title}
          </h2>
          <p className="muted">{description}</p>
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}
