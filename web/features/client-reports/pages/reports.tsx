// /reports (issue 30): the business's monthly results reports, newest month first (View opens the report's page, PDF
// its download), and their own choice to get each month's report by mail, and at which addresses. Times show in the
// business's time zone. Customers see what happened and what they can do, never the server's wording.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { ClientReportSettings, ClientReportSummary } from "../../../../worker/features/client-reports/rules/client-report";
import { Alert } from "../../../design/alert";
import { PageTitle } from "../../brand";
import { buttonClass } from "../../../design/button";
import { formatDayIn, nextFirstOfMonth, PendingRecipients, RecipientsForm, ReportStatusBadge, ReportSwitch } from "../client-report-delivery";
import { DownloadIcon, ExternalLinkIcon, FileTextIcon } from "../../../design/icons";
import { PageHeader } from "../../../design/page-header";
import { Placeholder } from "../../../design/placeholder";
import { SettingsSection } from "../../../design/settings-section";
import { TableHead } from "../../../design/table-head";
import { useAuth } from "../../../lib/auth";
import { useBusinessTimeZone } from "../../profile";
import { useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import { clientReportsQuery, useSaveClientReportSettings } from "../queries";
import "../client-reports.css";
import { QueryView } from "../../../app/query-view";

export default function ReportsPage() {
  const query = useQuery(clientReportsQuery());
  const timeZone = useBusinessTimeZone();
  const data = query.data?.role === "user" ? query.data : null;

  return (
    <>
      <PageTitle>Reports</PageTitle>
      <PageHeader title="Monthly Reports" subtitle="What changed for your business each month: calls and clicks from Google, your rankings, your reviews, and what was done." />

      <QueryView query={query} failure="We couldn't load your reports: ">
        {() => !data ? (
          <Alert tone="info" title="Every client's reports are on Client Reports">
            <p>
              <Link to="/admin/client-reports">Open Client Reports</Link>, or view the app as a client to see their page.
            </p>
          </Alert>
        ) : (
          <>
            {data.reports.length === 0 ? (
              <Placeholder className="empty-state" icon={FileTextIcon} title="No reports yet">
                <p className="placeholder-text">
                  {data.settings.enabled
                    ? `Your first report arrives on ${nextFirstOfMonth(timeZone)}: it shows what changed for your business over the month.`
                    : `Switch on monthly reports below and your first one arrives on ${nextFirstOfMonth(timeZone)}.`}
                </p>
              </Placeholder>
            ) : (
              <ReportList reports={data.reports} timeZone={timeZone} />
            )}
            <MailSettings settings={data.settings} />
          </>
        )}
      </QueryView>
    </>
  );
}

function ReportList({ reports, timeZone }: { reports: ClientReportSummary[]; timeZone: string }) {
  return (
    <div className="card users-table-wrap">
      <table className="users-table">
        <TableHead columns={["Month", "Prepared"]} actions="Open" />
        <tbody>
          {reports.map((r) => (
            <tr key={r.id}>
              <td className="cell-user" data-label="Month">
                <span className="company-name">{r.monthLabel}</span>
              </td>
              <td data-label="Prepared">
                {r.status === "ready" && r.builtAt ? (
                  <time dateTime={r.builtAt}>{formatDayIn(r.builtAt, timeZone)}</time>
                ) : r.status === "failed" ? (
                  <span className="muted">Not available yet: we're on it</span>
                ) : (
                  <>
                    <ReportStatusBadge status="building" /> <span className="muted">Being prepared</span>
                  </>
                )}
              </td>
              <td data-label="Open" className="col-actions">
                {r.status === "ready" && r.shareUrl ? (
                  <div className="row-actions">
                    <a className={buttonClass("secondary", "sm")} href={r.shareUrl} target="_blank" rel="noopener noreferrer" aria-label={`View the ${r.monthLabel} report`}>
                      View <ExternalLinkIcon size="sm" />
                    </a>
                    {r.pdfUrl ? (
                      <a className={buttonClass("secondary", "sm")} href={r.pdfUrl} download aria-label={`Download the ${r.monthLabel} report as PDF`}>
                        <DownloadIcon size="sm" /> PDF
                      </a>
                    ) : null}
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MailSettings({ settings }: { settings: ClientReportSettings }) {
  const { user } = useAuth();
  const viewAs = useViewAs();
  const save = useSaveClientReportSettings();
  const [saved, setSaved] = useTimedMessage();
  const [failed, setFailed] = useState<string | null>(null);
  const accountEmail = (viewAs ? viewAs.viewingUserEmail : user?.email) || null;

  function write(update: { enabled: boolean; recipients: string[] }, done: string) {
    setFailed(null);
    save.mutate(
      { userId: settings.userId, ...update },
      { onSuccess: () => setSaved(done), onError: (e) => setFailed(`We couldn't save that: ${e.message}`) },
    );
  }

  return (
    <SettingsSection
      title="Get it by mail"
      description="Each month's report in your inbox on the 1st, with its link and PDF. Anyone else you add gets a mail to confirm first, and every report can be unsubscribed from."
    >
      {viewAs ? <p className="muted">Read-only while you view the app as this business: change it on Client Reports.</p> : null}
      <ReportSwitch
        label="Email me my monthly report"
        checked={settings.enabled}
        disabled={save.isPending || Boolean(viewAs)}
        onChange={(enabled) => write({ enabled, recipients: settings.recipients }, enabled ? "Monthly reports by mail are on." : "Monthly reports by mail are off.")}
      />
      <RecipientsForm
        key={settings.recipients.join(",")}
        recipients={settings.recipients}
        accountEmail={accountEmail}
        whose="your account's"
        disabled={Boolean(viewAs)}
        busy={save.isPending}
        onSave={(recipients) => write({ enabled: settings.enabled, recipients }, "Recipients saved.")}
      />
      <PendingRecipients pending={settings.pending ?? []} />
      <div aria-live="polite">
        {saved ? <Alert tone="success">{saved}</Alert> : null}
        {failed ? <Alert tone="error">{failed}</Alert> : null}
      </div>
    </SettingsSection>
  );
}
