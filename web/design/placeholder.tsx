// The centred card with an icon, a title and a few lines that empty states and stand-in pages share.
import { useId, type ComponentType, type ReactNode } from "react";

export function Placeholder({
  icon: Icon,
  title,
  heading: Heading = "h2",
  className = "placeholder",
  children,
}: {
  icon: ComponentType;
  title: string;
  heading?: "h1" | "h2";
  /** `placeholder` for a page-size card, `empty-state` for an empty list. */
  className?: string;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className={`card ${className}`} aria-labelledby={titleId}>
      <span className="placeholder-icon">
        <Icon />
      </span>
      <Heading className="placeholder-title" id={titleId}>
        {title}
      </Heading>
      {children}
    </section>
  );
}
