// What the admin's Client Reports screen and the client's Reports page share (issue 30): the monthly-report switch, the
// recipients form (checked before it is saved: valid addresses, at most five; empty means the account's address), the
// report's status badge, and the month/date arithmetic in the business's time zone.
import { useState, type FormEvent } from "react";
import { CLIENT_REPORT_MAX_RECIPIENTS, type ClientReportStatus } from "../../../worker/features/client-reports/rules/client-report";
import { parseRecipients } from "../../../worker/features/client-reports/rules/recipients";
import { Badge, type BadgeTone } from "../../design/badge";
import { Button } from "../../design/button";
import { TextField } from "../../design/text-field";
import "./client-reports.css";

export const REPORT_STATUS: Record<ClientReportStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: "Queued", tone: "soon" },
  building: { label: "Building", tone: "new" },
  ready: { label: "Ready", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

export function ReportStatusBadge({ status }: { status: ClientReportStatus }) {
  return <Badge tone={REPORT_STATUS[status].tone}>{REPORT_STATUS[status].label}</Badge>;
}

/** An on/off switch (a checkbox with the switch role). */
export function ReportSwitch({
  label,
  ariaLabel,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  /** The switch's name when the visible label is only "On"/"Off". */
  ariaLabel?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="checkbox">
      <input type="checkbox" role="switch" aria-label={ariaLabel} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** Who gets the mail, in words: the list, or the account's address when the list is empty ("your account's" to the client). */
export function recipientsText(recipients: readonly string[], accountEmail: string | null, whose = "the account's"): string {
  if (recipients.length > 0) return recipients.join(", ");
  return accountEmail ? `${whose} address (${accountEmail})` : `${whose} address`;
}

/** The recipients field and its Save button; the addresses are checked here before onSave is called. */
export function RecipientsForm({
  recipients,
  accountEmail,
  whose = "the account's",
  disabled,
  busy,
  error: serverError,
  onSave,
  onCancel,
}: {
  recipients: readonly string[];
  accountEmail: string | null;
  /** Whose address an empty list means: "the account's" (admin), "your account's" (the client). */
  whose?: string;
  disabled?: boolean;
  busy?: boolean;
  /** The save's own failure, shown under the field. */
  error?: string | null;
  onSave: (recipients: string[]) => void;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(recipients.join(", "));
  const [error, setError] = useState<string | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = parseRecipients(text);
    if (!parsed.ok) return setError(parsed.message);
    setError(null);
    onSave(parsed.recipients);
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Report recipients">
      <TextField
        label="Send to"
        value={text}
        disabled={disabled}
        placeholder={accountEmail ?? "name@example.com"}
        hint={`Up to ${CLIENT_REPORT_MAX_RECIPIENTS} email addresses, separated by commas. Left empty, it goes to ${recipientsText([], accountEmail, whose)}.`}
        error={error ?? serverError ?? null}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      <div className="form-actions">
        {onCancel ? (
          <Button variant="ghost" disabled={busy} onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" variant="primary" busy={busy} disabled={disabled}>
          Save recipients
        </Button>
      </div>
    </form>
  );
}

/** The listed addresses still waiting for their owner to confirm (issue 39): they get no report until then. */
export function PendingRecipients({ pending }: { pending: readonly string[] }) {
  if (pending.length === 0) return null;
  return (
    <p className="muted">
      Waiting for confirmation: {pending.join(", ")}. {pending.length === 1 ? "It was" : "Each was"} mailed a link and gets the report once confirmed.
    </p>
  );
}

/** The calendar parts of `at` in a time zone. */
function zonedParts(at: Date, timeZone: string): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric" }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month") };
}

/** "YYYY-MM" of the last whole month in the business's time zone: what "Build now" builds. */
export function lastWholeMonth(timeZone: string, now = new Date()): string {
  const { year, month } = zonedParts(now, timeZone);
  const y = month === 1 ? year - 1 : year;
  const m = month === 1 ? 12 : month - 1;
  return `${y}-${String(m).padStart(2, "0")}`;
}

/** "October 2026" for "2026-10". */
export function monthLabel(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

/** "December 1": the 1st of next month in the business's time zone (when the next report arrives). */
export function nextFirstOfMonth(timeZone: string, now = new Date()): string {
  const { year, month } = zonedParts(now, timeZone);
  const next = new Date(Date.UTC(month === 12 ? year + 1 : year, month === 12 ? 0 : month, 1));
  return new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", timeZone: "UTC" }).format(next);
}

/** "Nov 3, 2026": a day in the business's time zone. */
export function formatDayIn(iso: string, timeZone: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone }).format(date);
}
