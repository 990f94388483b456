// A generated text with 'Edit' → textarea → 'Save Changes' / 'Cancel' (spec part 1 §4's edit flow), a character
// count against its limit, and its copy button (2-second feedback).
import { useId, useState, type ReactNode } from "react";
import { charCount } from "../../../worker/features/content/rules/length";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { PenIcon } from "../../design/icons";
import "./content.css";
import { CopyButton } from "../reports";

type Props = {
  text: string;
  label: string;
  /** The characters allowed (shown as "n / limit"). */
  limit?: number;
  /** Counted with the text against the limit (hashtags posted below it). */
  extraChars?: number;
  copyText?: string;
  copyLabel?: string;
  readOnly: boolean;
  saving: boolean;
  saveError: string | null;
  onSave: (text: string) => Promise<boolean>;
  className?: string;
  /** Shown under the text, above the buttons (a post's hashtags). */
  after?: ReactNode;
};

export function EditableText({ text, label, limit, extraChars = 0, copyText, copyLabel = "Copy", readOnly, saving, saveError, onSave, className, after }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const id = useId();
  const count = charCount(draft ?? text) + extraChars;
  const over = limit !== undefined && count > limit;
  return (
    <div className="fb-edit">
      {draft === null ? (
        <p className={className ?? "post-content"}>{text}</p>
      ) : (
        <>
          <label className="visually-hidden" htmlFor={id}>
            {label}
          </label>
          <textarea id={id} className="input new-report-textarea" rows={8} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </>
      )}
      {after}
      {saveError && draft !== null ? <Alert tone="error">{saveError}</Alert> : null}
      <div className="fb-edit-actions">
        {limit !== undefined ? (
          <span className={over ? "content-count is-over" : "content-count"}>
            {`${count.toLocaleString("en-US")} / ${limit.toLocaleString("en-US")}`}
          </span>
        ) : null}
        {draft === null ? (
          <>
            {readOnly ? null : (
              <Button size="sm" variant="ghost" onClick={() => setDraft(text)}>
                <PenIcon size="sm" /> Edit
              </Button>
            )}
            <CopyButton text={copyText ?? text} label={copyLabel} copiedLabel="Copied" />
          </>
        ) : (
          <>
            <EditActions
              saving={saving}
              canSave={Boolean(draft.trim()) && !over}
              onCancel={() => setDraft(null)}
              onSave={async () => {
                if (await onSave(draft.trim())) setDraft(null);
              }}
            />
          </>
        )}
      </div>
    </div>
  );
}

/** Cancel and 'Save Changes' under a text being edited (here and in the Facebook post preview). */
export function EditActions({ saving, canSave, onCancel, onSave }: { saving: boolean; canSave: boolean; onCancel: () => void; onSave: () => void }) {
  return (
    <>
      <Button variant="ghost" size="sm" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button variant="primary" size="sm" busy={saving} disabled={!canSave} onClick={onSave}>
        Save Changes
      </Button>
    </>
  );
}
