// One segmented control for every page: a row of buttons of which one is chosen (a preview size, a billing
// period, a list filter, a table grouping). Styles in base.css: `.segmented`, with `strong` and `lg` variants.
import type { ReactNode } from "react";

export type SegmentedOption<T extends string> = { value: T; label: ReactNode };

export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  variant = "soft",
  size = "md",
  tabs = false,
  className,
}: {
  /** The group's accessible name. */
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** soft: the chosen option raised on a grey track; strong: the chosen option dark on a white card (list filters). */
  variant?: "soft" | "strong";
  /** lg: pill-shaped and larger (a page-level choice such as the billing period). */
  size?: "md" | "lg";
  /** Tabs that switch the view below (role tab, aria-selected) rather than toggle buttons (aria-pressed). */
  tabs?: boolean;
  /** Placement on the page (margins), never the control's own look. */
  className?: string;
}) {
  const classes = ["segmented", variant === "strong" ? "segmented-strong" : "", size === "lg" ? "segmented-lg" : "", className ?? ""];
  return (
    <div className={classes.filter(Boolean).join(" ")} role={tabs ? "tablist" : "group"} aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          className="segmented-option"
          {...(tabs ? { role: "tab", "aria-selected": o.value === value } : { "aria-pressed": o.value === value })}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
