// One prospect on the Prospects screen: every field, the tag dropdown ('Add Tag'), AI Chat, View and delete.
import { useId } from "react";
import { Link } from "react-router";
import { CATEGORIES } from "../../worker/domain/categories";
import type { ProspectDto } from "../../worker/domain/admin-api";
import { formatCreated } from "../lib/format-date";
import { buttonClass } from "./button";
import { ReportStatusBadge } from "./report-status";
import { CalendarIcon, ChatIcon, EyeIcon, MailIcon, MapPinIcon, PhoneIcon, SearchIcon, TrashIcon } from "./icons";

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
  const showCompany = p.company_name && p.company_name !== p.name;
  return (
    <article className="card prospect-card" aria-busy={saving || undefined} aria-labelledby={`${tagId}-name`}>
      <header className="prospect-card-head">
        <div className="prospect-card-titles">
          <h3 className="prospect-name" id={`${tagId}-name`}>
            {p.name}
          </h3>
          {/* Imports set the company name to the name; it is shown once then. */}
          {showCompany ? <p className="prospect-company">{p.company_name}</p> : null}
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
        <div>
          <dt>
            <SearchIcon size="sm" />
            <span className="visually-hidden">Keyword</span>
          </dt>
          <dd className="prospect-keyword">{p.keyword || "—"}</dd>
        </div>
        <div>
          <dt>
            <MapPinIcon size="sm" />
            <span className="visually-hidden">Area</span>
          </dt>
          <dd>{p.area}</dd>
        </div>
        <div>
          <dt>
            <PhoneIcon size="sm" />
            <span className="visually-hidden">Phone</span>
          </dt>
          <dd>{p.phone ? <a href={`tel:+${p.phone}`}>{formatPhone(p.phone)}</a> : <span className="muted">No phone</span>}</dd>
        </div>
        <div>
          <dt>
            <MailIcon size="sm" />
            <span className="visually-hidden">Email</span>
          </dt>
          <dd className="prospect-email">
            {p.email ? <a href={`mailto:${p.email}`}>{p.email}</a> : <span className="muted">No email</span>}
          </dd>
        </div>
        <div>
          <dt>
            <CalendarIcon size="sm" />
            <span className="visually-hidden">Created</span>
          </dt>
          <dd>
            <time dateTime={p.created_at}>{formatCreated(p.created_at)}</time>
          </dd>
        </div>
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
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>

      {p.report ? (
        <div className="prospect-report-status">
          <ReportStatusBadge status={p.report.status} />
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
