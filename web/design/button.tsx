// The button: variants, sizes, and a busy state that keeps its label readable to screen readers.
import type { ButtonHTMLAttributes } from "react";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "dark";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: "sm" | "md" | "lg";
  block?: boolean;
  busy?: boolean;
};

export function buttonClass(variant: ButtonVariant = "secondary", size: "sm" | "md" | "lg" = "md", block = false) {
  return ["btn", `btn-${variant}`, size === "md" ? "" : `btn-${size}`, block ? "btn-block" : ""].filter(Boolean).join(" ");
}

export function Button({ variant = "secondary", size = "md", block, busy, disabled, className, type = "button", ...rest }: Props) {
  return (
    <button
      type={type}
      className={[buttonClass(variant, size, block), className ?? ""].filter(Boolean).join(" ")}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    />
  );
}

/** The two small buttons that end an inline edit form: Save submits it, Cancel leaves the edit. */
export function SaveCancelButtons({ busy, onCancel }: { busy: boolean; onCancel: () => void }) {
  return (
    <>
      <Button type="submit" size="sm" variant="primary" busy={busy}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </>
  );
}
