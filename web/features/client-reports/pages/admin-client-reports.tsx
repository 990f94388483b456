// /admin/client-reports (issue 30): every business client and their monthly report: on/off and who gets it, the last
// report (status, the error of a failed build, sent, opened and views, the AI summary's fallback), the next run, and
// Preview / Send now / Rebuild (Build now for a client without one). The list polls while a report is queued or building.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ClientReportClientRow, ClientReportSummary } from "../../../../worker/features/client-reports/rules/client-report";
import { Alert } from "../../../design/alert";
import { PageHead } from "../../brand";
import { Button, buttonClass } from "../../../design/button";
import {
  formatDayIn,
  lastWholeMonth,
  PendingRecipients,
  RecipientsForm,
  recipientsText,
  ReportStatusBadge,
  ReportSwitch,
} from "../client-report-delivery";
import { ExternalLinkIcon, MailIcon, UsersIcon } from "../../../design/icons";
import { Modal } from "../../../design/modal";
import { Placeholder } from "../../../design/placeholder";
import { SearchField } from "../../../design/search-field";
import { TableHead } from "../../../design/table-head";
import { formatDateTime } from "../../../lib/format-date";
import { useViewAs } from "../../../lib/view-as";
import { clientReportsQuery, isReportPending, useBuildClientReport, useSaveClientReportSettings, useSendClientReport } from "../queries";
import "../client-reports.css";
import { QueryView } from "../../../app/query-view";

const COLUMNS = ["Client", "Monthly report", "Last report", "Delivery"] as const;

export default function AdminClientReportsPage() {
  const readOnly = Boolean(useViewAs());
  const query = useQuery(clientReportsQuery());
  const [search, setSearch] = useState("");
  const clients = query.data?.role === "admin" ? query.data.clients : null;
  const q = search.trim().toLowerCase();
  const shown = clients?.filter((c) => !q || `${c.businessName ?? ""} ${c.email ?? ""}`.toLowerCase().includes(q)) ?? [];

  return (
    <>
      <PageHead
        eyebrow="Admin"
        title="Client Reports"
        subtitle="Each client's monthly results report: built on the 1st of the month in the client's time zone and mailed with its link and PDF."
      />

      <QueryView query={query} failure="Failed to load client reports: ">
        {() => !clients ? (
          <Alert tone="info">Return to the admin view to see every client's reports.</Alert>
        ) : clients.length === 0 ? (
          <Placeholder className="empty-state" icon={UsersIcon} title="No business clients yet">
            <p className="placeholder-text">When a business signs up, it is listed here and you can switch its monthly report on.</p>
          </Placeholder>
        ) : (
          <>
            <div className="toolbar">
              <SearchField placeholder="Search clients..." label="Search clients" value={search} onChange={setSearch} />
            </div>
            {shown.length === 0 ? (
              <Placeholder className="empty-state" icon={UsersIcon} title="No clients found">
                <p className="placeholder-text">{`No client matches "${search.trim()}". Try a different search term.`}</p>
              </Placeholder>
            ) : (
              <div className="card users-table-wrap">
                <table className="users-table client-reports-table">
                  <TableHead columns={COLUMNS} actions="Actions" />
                  <tbody>
                    {shown.map((c) => (
                      <ClientRow key={c.userId} client={c} readOnly={readOnly} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </QueryView>
    </>
  );
}

function ClientRow({ client, readOnly }: { client: ClientReportClientRow; readOnly: boolean }) {
  const { settings, lastReport: last, timeZone } = client;
  const name = client.businessName || client.email || "Unnamed business";
  const save = useSaveClientReportSettings();
  const build = useBuildClientReport();
  const send = useSendClientReport();
  const [editing, setEditing] = useState(false);
  const [confirmSend, setConfirmSend] = useState(false);
  const [result, setResult] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const ready = last?.status === "ready";
  // From the server's state, not kept beside it: the note goes as soon as the polled list says the report is ready.
  const building = last && isReportPending(last.status) ? `Building the ${last.monthLabel} report.` : null;
  const to = recipientsText(settings.recipients, client.email);

  function toggle(enabled: boolean) {
    setResult(null);
    save.mutate(
      { userId: client.userId, enabled, recipients: settings.recipients },
      { onError: (e) => setResult({ tone: "error", text: `Could not switch the report ${enabled ? "on" : "off"}: ${e.message}` }) },
    );
  }

  function rebuild(month: string) {
    setResult(null);
    build.mutate(
      { userId: client.userId, month },
      {
        onError: (e) => setResult({ tone: "error", text: `Could not build the report: ${e.message}` }),
      },
    );
  }

  function sendNow(report: ClientReportSummary) {
    send.mutate(report.id, {
      onSuccess: (answer) => {
        setConfirmSend(false);
        const sentTo = answer?.report?.sentTo?.length ? answer.report.sentTo.join(", ") : to;
        setResult({ tone: "ok", text: `Sent the ${report.monthLabel} report to ${sentTo}.` });
      },
      onError: (e) => {
        setConfirmSend(false);
        setResult({ tone: "error", text: `Could not send the report: ${e.message}` });
      },
    });
  }

  return (
    <tr>
      <td className="cell-user" data-label="Client">
        <div className="company-cell">
          <div className="company-name">{name}</div>
          {client.email && client.businessName ? <div className="muted">{client.email}</div> : null}
          <div className="muted">{timeZone}</div>
        </div>
      </td>
      <td data-label="Monthly report">
        <div className="company-cell">
          <ReportSwitch
            label={settings.enabled ? "On" : "Off"}
            ariaLabel={`Monthly report for ${name}`}
            checked={settings.enabled}
            disabled={readOnly || save.isPending}
            onChange={toggle}
          />
          {settings.enabled && client.nextRunAt ? <div className="muted">Next report: {formatDayIn(client.nextRunAt, timeZone)}</div> : null}
          <div className="muted">To: {settings.recipients.length > 0 ? settings.recipients.join(", ") : "the account's address"}</div>
          <PendingRecipients pending={settings.pending ?? []} />
          <Button size="sm" variant="ghost" disabled={readOnly} onClick={() => setEditing(true)}>
            Edit recipients
          </Button>
        </div>
      </td>
      <td data-label="Last report">
        {last ? (
          <div className="company-cell">
            <div>
              {last.monthLabel} <ReportStatusBadge status={last.status} />
            </div>
            {last.status === "failed" && last.error ? <p className="field-error">{last.error}</p> : null}
            {last.summarySource === "template" ? (
              <div className="muted">Summary written from the figures{last.summaryNote ? `: ${last.summaryNote}` : " (the AI summary was unavailable)."}</div>
            ) : null}
          </div>
        ) : (
          <span className="muted">None yet</span>
        )}
      </td>
      <td data-label="Delivery">
        {last?.sentAt ? (
          <div className="company-cell">
            <div>Sent {formatDateTime(last.sentAt, timeZone)}</div>
            <div className="muted">{last.firstOpenedAt ? `Opened ${formatDateTime(last.firstOpenedAt, timeZone)} · ${views(last.views)}` : "Not opened yet"}</div>
          </div>
        ) : last && last.views > 0 ? (
          <span className="muted">Not sent · {views(last.views)}</span>
        ) : (
          <span className="muted">Not sent</span>
        )}
      </td>
      <td data-label="Actions" className="col-actions">
        <div className="row-actions client-report-actions">
          {ready && last.shareUrl ? (
            <a className={buttonClass("secondary", "sm")} href={`${last.shareUrl}?preview=1`} target="_blank" rel="noopener noreferrer">
              Preview <ExternalLinkIcon size="sm" />
            </a>
          ) : (
            <Button size="sm" disabled title="Available once the report is ready">
              Preview
            </Button>
          )}
          <Button size="sm" variant="dark" disabled={readOnly || !ready} onClick={() => setConfirmSend(true)}>
            Send now
          </Button>
          {last ? (
            <Button size="sm" disabled={readOnly || last.status === "queued" || last.status === "building"} busy={build.isPending} onClick={() => rebuild(last.month)}>
              Rebuild
            </Button>
          ) : (
            <Button size="sm" variant="primary" disabled={readOnly} busy={build.isPending} onClick={() => rebuild(lastWholeMonth(timeZone))}>
              Build now
            </Button>
          )}
        </div>
        {building && !result ? (
          <p className="muted" role="status">
            {building}
          </p>
        ) : null}
        {result ? (
          <p className={result.tone === "error" ? "field-error" : "muted"} role="status">
            {result.text}
          </p>
        ) : null}
        {editing ? (
          <Modal title={`Who gets ${name}'s report`} footer={null} busy={save.isPending} onClose={() => setEditing(false)}>
            <RecipientsForm
              recipients={settings.recipients}
              accountEmail={client.email}
              busy={save.isPending}
              error={save.error?.message}
              onCancel={() => setEditing(false)}
              onSave={(recipients) => save.mutate({ userId: client.userId, enabled: settings.enabled, recipients }, { onSuccess: () => setEditing(false) })}
            />
          </Modal>
        ) : null}
        {confirmSend && last ? (
          <Modal
            title={`Send the ${last.monthLabel} report now?`}
            icon={<MailIcon />}
            busy={send.isPending}
            onClose={() => setConfirmSend(false)}
            footer={
              <>
                <Button variant="ghost" disabled={send.isPending} onClick={() => setConfirmSend(false)}>
                  Cancel
                </Button>
                <Button variant="primary" busy={send.isPending} onClick={() => sendNow(last)}>
                  Send report
                </Button>
              </>
            }
          >
            <p>
              {name}'s report for {last.monthLabel} goes by mail to {to}
              {last.sentAt ? `; it was already sent ${formatDateTime(last.sentAt, timeZone)}` : ""}.
            </p>
          </Modal>
        ) : null}
      </td>
    </tr>
  );
}

const views = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "view" : "views"}`;
