// A titled section of a page: its heading names the region for screen readers.
import { useId, type ReactNode } from "react";

export function PageSection({ id, title, children }: { id?: string; title: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="section" id={id} aria-labelledby={titleId}>
      <h2 className="section-title" id={titleId}>
        {title}
      </h2>
      {children}
    </section>
  );
}
