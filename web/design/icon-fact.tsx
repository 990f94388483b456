// One fact in a <dl> of icons and values (a prospect card, a chat's lead): the icon stands for the term, which
// screen readers still hear.
import type { ComponentType, ReactNode } from "react";

export function IconFact({ icon: Icon, label, className, children }: { icon: ComponentType<{ size?: "sm" }>; label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>
        <Icon size="sm" />
        <span className="visually-hidden">{label}</span>
      </dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
