// The paste form: tab-separated rows, a live check with the same parser the server uses, and the duplicates switch.
import { useDeferredValue, useMemo, type RefObject } from "react";
import { formatRowError, HEADER_SKIPPED, parseProspectPaste } from "../../../worker/features/prospects/rules/import";
import "./prospects.css";

/** Row errors listed under the box before sending; the rest are summarised. */
const PREVIEW_ERRORS = 5;

type Props = {
  text: string;
  onTextChange: (text: string) => void;
  allowDuplicates: boolean;
  onAllowDuplicatesChange: (value: boolean) => void;
  busy: boolean;
  progress: { i: number; n: number } | null;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  onSubmit: () => void;
};

function plural(n: number, one: string, many: string) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function ProspectImportForm({
  text,
  onTextChange,
  allowDuplicates,
  onAllowDuplicatesChange,
  busy,
  progress,
  textareaRef,
  onSubmit,
}: Props) {
  const deferred = useDeferredValue(text);
  const check = useMemo(() => (deferred.trim() ? parseProspectPaste(deferred) : null), [deferred]);

  return (
    <form
      className="card import-form"
      aria-label="New prospects"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor="prospect-paste">
          Paste prospects
        </label>
        <p className="field-hint" id="prospect-paste-hint">
          One prospect per line, fields separated by tabs (copy rows straight from a spreadsheet):{" "}
          <span className="format-chips">
            {["Description", "Name", "Location", "Phone", "Email", "Full Name"].map((f) => (
              <span key={f} className="format-chip">
                {f}
              </span>
            ))}
            <span className="format-chip">Website (optional)</span>
          </span>{" "}
          A 7th column, Website, lets the audit read the business's site; without it the Google listing's website is used.
        </p>
        <textarea
          id="prospect-paste"
          ref={textareaRef}
          className="input textarea mono"
          rows={8}
          spellCheck={false}
          value={text}
          disabled={busy}
          aria-describedby="prospect-paste-hint prospect-paste-check"
          placeholder={"Roof repair and replacement\tAcme Roofing\tAustin, TX\t(512) 555-0100\tinfo@acme.com\tJane Doe"}
          onChange={(e) => onTextChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              onSubmit();
            }
          }}
        />
      </div>

      <div className="import-check" id="prospect-paste-check" aria-live="polite">
        {check?.ok ? (
          <>
            <p className="import-summary">
              <span className="import-pill is-ok">{plural(check.rows.length, "row ready", "rows ready")}</span>
              {check.errors.length ? (
                <span className="import-pill is-error">{plural(check.errors.length, "row with errors", "rows with errors")}</span>
              ) : null}
              {check.skipped.length ? (
                <span className="import-pill">{plural(check.skipped.length, "row without name or location", "rows without name or location")}</span>
              ) : null}
              {check.header ? <span className="import-pill">Header row skipped</span> : null}
            </p>
            {check.header ? <p className="field-hint">{HEADER_SKIPPED}</p> : null}
            {check.errors.length ? (
              <ul className="row-errors">
                {check.errors.slice(0, PREVIEW_ERRORS).map((e) => (
                  <li key={e.row}>{formatRowError(e.row, e.message)}</li>
                ))}
                {check.errors.length > PREVIEW_ERRORS ? <li>and {check.errors.length - PREVIEW_ERRORS} more</li> : null}
              </ul>
            ) : null}
          </>
        ) : null}
      </div>

      <div className="import-foot">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allowDuplicates}
            disabled={busy}
            onChange={(e) => onAllowDuplicatesChange(e.target.checked)}
          />
          <span>Import duplicates anyway</span>
        </label>
        {progress ? (
          <div className="import-progress" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>
              Processing prospect {progress.i} of {progress.n}...
            </span>
            <progress max={progress.n} value={progress.i} aria-hidden="true" />
          </div>
        ) : (
          <p className="field-hint">Rows matching an existing prospect (same name and phone, or same name and location) are skipped.</p>
        )}
      </div>
    </form>
  );
}
