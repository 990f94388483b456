// Labelled select and textarea fields for the generators' options (TextField covers inputs), and the content
// suite's shared choices: the tone and the networks.
import { useId, type ReactNode } from "react";
import { CONTENT_TONES, CONTENT_TONE_LABELS, type ContentTone } from "../../worker/features/content/rules/content";
import { NETWORK_LABELS, NETWORKS, type Network } from "../../worker/features/content/rules/length";
import { Alert } from "./alert";
import { AlertCircleIcon } from "./icons";

export function SelectField({
  label,
  name,
  value,
  onChange,
  disabled,
  wide = true,
  children,
}: {
  label: string;
  name?: string;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  /** Spans the whole row of a generator's options grid. */
  wide?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={wide ? "field fb-wide" : "field"}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} name={name} className="input" value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        {children}
      </select>
    </div>
  );
}

/** One <option> per value, shown as `label` gives it (the value itself by default). */
export function Options<T extends string | number>({ values, label = String }: { values: readonly T[]; label?: (value: T) => ReactNode }) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {label(value)}
        </option>
      ))}
    </>
  );
}

export function TextAreaField({
  label,
  value,
  onChange,
  maxLength,
  placeholder,
  hint,
  rows = 3,
  error,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  maxLength: number;
  placeholder?: string;
  hint?: string;
  rows?: number;
  /** Shown under the field, as TextField shows its error. */
  error?: string | null;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="input new-report-textarea"
        rows={rows}
        maxLength={maxLength}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          <AlertCircleIcon size="sm" />
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function ToneSelect({ value, onChange }: { value: ContentTone; onChange: (tone: ContentTone) => void }) {
  return (
    <SelectField label="Tone" value={value} onChange={(v) => onChange(v as ContentTone)}>
      <Options values={CONTENT_TONES} label={(t) => CONTENT_TONE_LABELS[t]} />
    </SelectField>
  );
}

/** A checkbox per network; `error` when none is picked. */
export function NetworkChoice({ value, onChange, error }: { value: readonly Network[]; onChange: (networks: Network[]) => void; error: string | null }) {
  return (
    <>
      <fieldset className="content-networks">
        <legend className="field-label">Networks</legend>
        {NETWORKS.map((n) => (
          <label key={n} className="checkbox">
            <input type="checkbox" checked={value.includes(n)} onChange={(e) => onChange(e.target.checked ? [...value, n] : value.filter((x) => x !== n))} />
            {NETWORK_LABELS[n]}
          </label>
        ))}
      </fieldset>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </>
  );
}

/** A checkbox with its label after it (a generator's options). */
export function CheckboxField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}
