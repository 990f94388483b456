// The business's time zone (Business Settings): the IANA zones the browser knows, the current one always listed.
import { useId, useMemo } from "react";
import { Options } from "../../design/form-fields";

function knownZones(current: string): string[] {
  const supported = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return supported.includes(current) || current === "" ? supported : [current, ...supported];
}

export function TimeZoneSelect({ label, name, value, onChange, error, disabled }: { label: string; name: string; value: string; onChange: (value: string) => void; error?: string; disabled?: boolean }) {
  const id = useId();
  const zones = useMemo(() => knownZones(value), [value]);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} name={name} className="input" value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} aria-describedby={`${id}-hint`}>
        <Options values={zones} label={(zone) => zone.replace(/_/g, " ")} />
      </select>
      <p className="field-hint" id={`${id}-hint`}>
        Scheduled posts and the times the app shows you use this zone.
      </p>
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}
