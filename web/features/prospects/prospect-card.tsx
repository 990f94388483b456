// One prospect on the Prospects screen: every field, the tag dropdown ('Add Tag'), AI Chat, View and delete.
import { useId } from "react";
import { Link } from "react-router";
import { CATEGORIES } from "../../../worker/domain/categories";
import { PROSPECT_SORTS, type ProspectSort, type ProspectDto } from "../../../worker/features/accounts/rules/admin-api";
import { openedLabel } from "../../../worker/features/reports/rules/event-names";
import { formatCreated } from "../../lib/format-date";
import { buttonClass } from "../../design/button";
import { Options } from "../../design/form-fields";
import { IconFact } from "../../design/icon-fact";
import { ReportStatusBadge } from "../reports";
import { CalendarIcon, ChatIcon, EyeIcon, MailIcon, MapPinIcon, PhoneIcon, SearchIcon, TrashIcon } from "../../design/icons";
import { companyBesideName } from "../../../worker/features/reports/rules/format";
import "./prospects.css";
import { citationTrackerPath } from "../reports";

/** Phones are stored as digits with a country prefix; a US number reads better grouped. */
export function formatPhone(digits: string): string {
  const us = /^1(\d{3})(\d{3})(\d{4})$/.exec(digits);
  return us ? `+1 (${us[1]}) ${us[2]}-${us[3]}` : digits ? `+${digits}` : "";
}

type Props = {
  prospect: ProspectDto;
  saving: boolean;
  readOnly: boolean;
  onTagChange: (prospect: ProspectDto, tag: string) => void;
  onDelete: (prospect: ProspectDto) => void;
};

export function ProspectCard({ prospect: p, saving, readOnly, onTagChange, onDelete }: Props) {
  const tagId = useId();
  const reportId = p.report?.id;
  const company = companyBesideName(p.name, p.company_name);
  return (
    <article className="card prospect-card" aria-busy={saving || undefined} aria-labelledby={`${tagId}-name`}>
      <header className="prospect-card-head">
        <div className="prospect-card-titles">
          <h3 className="prospect-name" id={`${tagId}-name`}>
            {p.name}
          </h3>
          {/* Imports set the company name to the name; it is shown once then. */}
          {company ? <p className="prospect-company">{company}</p> : null}
        </div>
        <button
          type="button"
          className="icon-button prospect-delete"
          aria-label={`Delete ${p.name}`}
          title="Delete prospect"
          disabled={readOnly}
          onClick={() => onDelete(p)}
        >
          <TrashIcon />
        </button>
      </header>

      {p.description ? <p className="prospect-description">{p.description}</p> : null}

      <dl className="prospect-facts">
        <IconFact icon={SearchIcon} label="Keyword" className="prospect-keyword">
          {p.keyword || "—"}
        </IconFact>
        <IconFact icon={MapPinIcon} label="Area">
          {p.area}
        </IconFact>
        <IconFact icon={PhoneIcon} label="Phone">
          {p.phone ? <a href={`tel:+${p.phone}`}>{formatPhone(p.phone)}</a> : <span className="muted">No phone</span>}
        </IconFact>
        <IconFact icon={MailIcon} label="Email" className="prospect-email">
          {p.email ? <a href={`mailto:${p.email}`}>{p.email}</a> : <span className="muted">No email</span>}
        </IconFact>
        <IconFact icon={CalendarIcon} label="Created">
          <time dateTime={p.created_at}>{formatCreated(p.created_at)}</time>
        </IconFact>
      </dl>

      <div className="prospect-tag">
        <label className="visually-hidden" htmlFor={tagId}>
          Tag for {p.name}
        </label>
        <select
          id={tagId}
          className={p.tag ? "select" : "select is-empty"}
          value={p.tag ?? ""}
          disabled={saving || readOnly}
          onChange={(e) => onTagChange(p, e.target.value)}
        >
          {p.tag ? null : (
            <option value="" disabled>
              Add Tag
            </option>
          )}
          <Options values={CATEGORIES} />
        </select>
      </div>

      {p.report ? (
        <div className="prospect-report-status">
          <ReportStatusBadge status={p.report.status} />
          {p.last_chat_at ? (
            <span className="prospect-last-chat">
              <ChatIcon size="sm" />
              Last chatted <time dateTime={p.last_chat_at}>{formatCreated(p.last_chat_at)}</time>
            </span>
          ) : null}
          <ReportOpened report={p.report} />
        </div>
      ) : null}

      <footer className="prospect-actions">
        {reportId ? (
          <>
            <Link className={buttonClass("dark", "sm")} to={`/admin/prospect-chat/${reportId}`}>
              <ChatIcon size="sm" />
              AI Chat
            </Link>
            <Link className={buttonClass("secondary", "sm")} to={`/admin/reports/${reportId}`}>
              <EyeIcon size="sm" />
              View
            </Link>
          </>
        ) : (
          <span className="muted">No report yet</span>
        )}
        <Link className={buttonClass("ghost", "sm")} to={citationTrackerPath(p)} title={`Scan ${p.name}'s listings in the Citation Tracker`}>
          <MapPinIcon size="sm" />
          Listings
        </Link>
      </footer>

      {saving ? (
        <div className="prospect-saving" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="visually-hidden">Saving tag…</span>
        </div>
      ) : null}
    </article>
  );
}

/** 'Opened {n}× · last {time ago}' once the prospect opened the shared report (issue 10). */
function ReportOpened({ report }: { report: NonNullable<ProspectDto["report"]> }) {
  const label = openedLabel({ opens: report.opens ?? 0, last_opened_at: report.last_opened_at ?? null });
  if (!label) return <span className="prospect-opened is-never">Not opened yet</span>;
  return (
    <span className="prospect-opened" title={`Last opened ${new Date(report.last_opened_at!).toLocaleString()}`}>
      <EyeIcon size="sm" />
      {label}
    </span>
  );
}

const SORT_LABELS: Record<ProspectSort, string> = { newest: "Newest first", opened: "Recently opened" };

/** The prospects list's order (server-side). */
export function ProspectSortSelect({ value, onChange }: { value: ProspectSort; onChange: (sort: ProspectSort) => void }) {
  const id = useId();
  return (
    <div className="prospect-sort">
      <label className="visually-hidden" htmlFor={id}>
        Sort prospects
      </label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value as ProspectSort)}>
        <Options values={PROSPECT_SORTS} label={(sort) => SORT_LABELS[sort]} />
      </select>
    </div>
  );
}
