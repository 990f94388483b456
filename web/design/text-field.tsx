// A labelled input with an optional hint and inline error, wired up for assistive technology; and the auth forms'
// email and current-password fields.
import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { AlertCircleIcon } from "./icons";

type Props = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  error?: string | null;
  /** Shown at the end of the label row (e.g. 'Forgot your password?'). */
  aside?: ReactNode;
};

export function TextField({ label, hint, error, aside, id, className, ...input }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="field">
      <div className="field-label-row">
        <label className="field-label" htmlFor={inputId}>
          {label}
        </label>
        {aside}
      </div>
      <input
        id={inputId}
        className={["input", className ?? ""].filter(Boolean).join(" ")}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        {...input}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          <AlertCircleIcon size="sm" />
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The Email field of the sign-in, sign-up and forgot-password forms. */
export function EmailField(props: Omit<Props, "label" | "type" | "name">) {
  return (
    <TextField
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      required
      placeholder="you@yourbusiness.com"
      {...props}
    />
  );
}

/** A password the user already has (sign-in, and the Account page's confirmations): the browser offers the saved one. */
export function CurrentPasswordField({ label = "Current password", ...props }: Omit<Props, "label" | "type" | "autoComplete"> & { label?: string }) {
  return <TextField label={label} type="password" autoComplete="current-password" {...props} />;
}
