// /admin/reports/:id: the admin report view (spec part 2 §2) — loading, error, generating with live progress, loaded.
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { BackLink } from "../../../design/back-link";
import type { AdminReportResponse } from "../../../../worker/features/reports/rules/view";
import { formatLongUsDate } from "../../../../worker/features/reports/rules/format";
import { Alert } from "../../../design/alert";
import { Button, buttonClass } from "../../../design/button";
import {
  ArrowLeftIcon,
  BuildingIcon,
  CalendarIcon,
  ExternalLinkIcon,
  KeyIcon,
  MapPinIcon,
  ShareIcon,
  TagIcon,
} from "../../../design/icons";
import { LINK_COPIED_MS, copyText, useCopyButtons, useFlag } from "../report-copy-button";
import { GeneratingScreen } from "../report-generating";
import { ReportSections } from "../report-sections";
import { ReportAudit } from "../../audits";
import { LocalVisibilitySection } from "../../rank";
import { ListingsSection, citationTrackerPath } from "../report-listings";
import { AiVisibilitySection, aiVisibilityPath } from "../report-ai-visibility";
import { ReportViewsTimeline } from "../report-views-timeline";
import { LoadingScreen } from "../../../app/route-guards";
import { useAudits } from "../../audits";
import { adminReportQuery, isNotFound } from "../queries";
import { AI_NOT_CONFIGURED_REASON, companyBesideName } from "../../../../worker/features/reports/rules/format";
import "../../../design/public-page.css";
import "../report-admin.css";
import "../report-sections.css";
import "../../../design/scan-results.css";
import { PageTitle } from "../../brand";

export const LOAD_FAILED = "Failed to load report. Please try again later.";
export const LINK_COPIED = "Link copied to clipboard!";
const REPORTS_PATH = "/admin/report-generator";

type State =
  | { phase: "loading" }
  | { phase: "error"; message: string }
  | { phase: "loaded"; data: AdminReportResponse };

/** The report, asked for again every ADMIN_REPORT_POLL_MS while it is not ready (a failed poll keeps what is shown). */
export function useAdminReport(id: string | undefined): State {
  const query = useQuery({ ...adminReportQuery(id ?? ""), enabled: id !== undefined });
  if (query.data) return { phase: "loaded", data: query.data };
  if (id === undefined || isNotFound(query.error)) return { phase: "error", message: "Report not found" };
  if (query.isError) return { phase: "error", message: LOAD_FAILED };
  return { phase: "loading" };
}

function BackToReports() {
  return <BackLink to={REPORTS_PATH}>Back to Reports</BackLink>;
}

function TemplateNotice({ data }: { data: AdminReportResponse }) {
  const { report } = data;
  if (report.source !== "template") return null;
  const noKey = !data.ai_configured || report.last_error === AI_NOT_CONFIGURED_REASON;
  return (
    <div className="report-notice">
      <Alert tone="warning" title="Template content — AI was unavailable">
        {noKey ? (
          <p>No AI key is configured on the server, so this report was filled with locally built template content.</p>
        ) : (
          <p>
            The AI could not produce this report after {report.attempts} {report.attempts === 1 ? "attempt" : "attempts"}, so it was filled
            with locally built template content.
            {report.last_error ? <span className="report-notice-why"> Why: {report.last_error}</span> : null}
          </p>
        )}
      </Alert>
    </div>
  );
}

function Summary({ data }: { data: AdminReportResponse }) {
  const { prospect, report } = data;
  const items = [
    { label: "Keyword", value: prospect.keyword || "—", icon: KeyIcon },
    { label: "Area", value: prospect.area || "—", icon: MapPinIcon },
    { label: "Created", value: formatLongUsDate(report.created_at) || "—", icon: CalendarIcon },
    { label: "Company", value: prospect.company_name || "—", icon: BuildingIcon },
    { label: "Tag", value: prospect.tag || "—", icon: TagIcon },
  ];
  return (
    <dl className="report-summary card" aria-label="Prospect summary">
      {items.map(({ label, value, icon: Icon }) => (
        <div key={label} className="report-summary-item">
          <dt className="caps-label">
            <Icon size="sm" />
            {label}
          </dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AdminReportView({ data }: { data: AdminReportResponse }) {
  const { report, prospect } = data;
  const company = companyBesideName(prospect.name, prospect.company_name);
  const [copied, flashCopied] = useFlag(LINK_COPIED_MS);
  useCopyButtons();
  // The same queries ReportAudit polls (one cache entry): the meta tags section shows the site's current ones.
  const { audit } = useAudits({ prospectId: prospect.id });
  const visibility = data.localVisibility ?? null;
  const ai = data.aiVisibility ?? null;
  const localSection = (
    <>
      {visibility ? <LocalVisibilitySection visibility={visibility} /> : null}
      {data.listings ? <ListingsSection
          listings={data.listings}
          actions={
            <Link className={buttonClass("ghost", "sm")} to={citationTrackerPath(prospect)}>
              Open in Citation Tracker
            </Link>
          }
        /> : null}
      {ai ? (
        <AiVisibilitySection
          ai={ai}
          actions={
            <Link className={buttonClass("ghost", "sm")} to={aiVisibilityPath(prospect)}>
              Open in AI Visibility
            </Link>
          }
          answersLink={(line) =>
            line.answerIds.length > 0 ? <Link to={aiVisibilityPath(prospect, line.answerIds)}>Read the {line.answerIds.length} answers</Link> : null
          }
        />
      ) : null}
    </>
  );

  if (report.status !== "ready" || !report.content) {
    return (
      <div className="report-page">
        <BackToReports />
        <GeneratingScreen
          intro={`Building the SEO report for ${prospect.name}${company ? ` (${company})` : ""}.`}
          progress={{
            status: report.status,
            attempts: report.attempts,
            maxAttempts: report.max_attempts,
            lastError: report.last_error,
          }}
        />
        {!data.ai_configured ? (
          <p className="generating-footnote">No AI key is configured: this report will get template content.</p>
        ) : null}
        <ReportAudit prospectId={prospect.id} initial={data.audit} />
        {localSection}
      </div>
    );
  }

  return (
    <div className="report-page">
      <PageTitle>{`Report for ${prospect.name}`}</PageTitle>
      <BackToReports />
      <header className="report-header">
        <div className="report-header-text">
          <p className="page-eyebrow">SEO Report</p>
          <h1 className="page-title">
            Report for {prospect.name}
            {company ? <span className="report-company"> ({company})</span> : null}
          </h1>
        </div>
        <div className="report-header-actions">
          <Link className={buttonClass("ghost")} to={citationTrackerPath(prospect)}>
            <MapPinIcon size="sm" />
            Scan listings
          </Link>
          <a className={buttonClass("ghost")} href={data.share_url} target="_blank" rel="noopener" data-testid="shared-link">
            <ExternalLinkIcon size="sm" />
            Open shared page
          </a>
          <Button
            variant="primary"
            onClick={async () => {
              if (await copyText(data.share_url)) flashCopied();
            }}
          >
            <ShareIcon size="sm" />
            Share Report
          </Button>
        </div>
        {copied ? (
          <p className="report-toast" role="status">
            {LINK_COPIED}
          </p>
        ) : null}
      </header>

      <TemplateNotice data={data} />
      <Summary data={data} />
      <ReportViewsTimeline reportId={report.id} />
      <ReportAudit prospectId={prospect.id} initial={data.audit} />
      {localSection}
      <ReportSections content={report.content} description={prospect.description} variant="admin" site={audit.data?.site ?? data.audit?.site ?? null} />
    </div>
  );
}

export default function AdminReportPage() {
  const { id } = useParams();
  const state = useAdminReport(id);
  const navigate = useNavigate();

  if (state.phase === "loading") return <LoadingScreen />;
  if (state.phase === "error") {
    return (
      <div className="report-page">
        <PageTitle>Report</PageTitle>
        <section className="card report-error">
          <Alert tone="error">{state.message}</Alert>
          <Button variant="secondary" onClick={() => navigate(REPORTS_PATH)}>
            <ArrowLeftIcon size="sm" />
            Back to Reports
          </Button>
        </section>
      </div>
    );
  }
  return <AdminReportView data={state.data} />;
}
