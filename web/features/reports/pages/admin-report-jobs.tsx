// /admin/report-generator/jobs: the Jobs panel under Prospects: reports queued, generating, failed or on template content, and regeneration.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { canRegenerate, jobNote, JOB_KIND_LABEL, JOB_KINDS, type JobKind, type ReportJob } from "../../../../worker/features/reports/rules/jobs";
import { AdminAccessRequired } from "../../../app/admin-access-required";
import { Alert, RetryAlert } from "../../../design/alert";
import { ACTIONS_COLUMN, TableHead } from "../../../design/table-head";
import { Button } from "../../../design/button";
import { BackLink } from "../../../design/back-link";
import { CheckCircleIcon, SparklesIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { ReportStatusBadge } from "../report-status";
import { Segmented } from "../../../design/segmented";
import { ApiError } from "../../../lib/api";
import { formatCreated } from "../../../lib/format-date";
import { useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import { reportJobsQuery, useRegenerateAllTemplate, useRegenerateReport } from "../jobs-queries";
import { PageHeader } from "../../../design/page-header";
import { PageTitle } from "../../brand";

export const JOBS_PATH = "/admin/report-generator/jobs";
type Filter = "all" | JobKind;

const errorMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : "Unknown error");

export default function ReportJobsPage() {
  const readOnly = Boolean(useViewAs());
  const jobs = useQuery(reportJobsQuery);
  const [filter, setFilter] = useState<Filter>("all");
  const [success, showSuccess] = useTimedMessage();
  const [actionError, setActionError] = useState<string | null>(null);
  const regenerate = useRegenerateReport();
  const regenerateAll = useRegenerateAllTemplate();

  if (jobs.error instanceof ApiError && jobs.error.code === "admin_required") {
    return (
      <>
        <PageTitle>Jobs</PageTitle>
        <AdminAccessRequired />
      </>
    );
  }

  const data = jobs.data;
  const restartable = data ? data.counts.failed + data.counts.template : 0;
  const shown = data ? data.jobs.filter((j) => filter === "all" || j.kind === filter) : [];
  const aiOff = data ? !data.ai_configured : false;

  function onRegenerate(job: ReportJob) {
    setActionError(null);
    regenerate.mutate(job.id, {
      onSuccess: (res) => {
        if (res.warning) setActionError(res.warning);
        showSuccess(res.enqueued ? `Queued "${job.prospect.name}" for generation` : `"${job.prospect.name}" is already queued`);
      },
      onError: (err) => setActionError(`Failed to regenerate the report: ${errorMessage(err)}`),
    });
  }

  function onRegenerateAll() {
    setActionError(null);
    regenerateAll.mutate(undefined, {
      onSuccess: (res) => {
        if (res.warning) setActionError(res.warning);
        showSuccess(`Queued ${res.queued} ${res.queued === 1 ? "report" : "reports"} for generation`);
      },
      onError: (err) => setActionError(`Failed to regenerate reports: ${errorMessage(err)}`),
    });
  }

  return (
    <>
      <PageTitle>Jobs</PageTitle>
      <PageHeader
        back={<BackLink to="/admin/report-generator">Back to Prospects</BackLink>}
        eyebrow="Admin · Prospects"
        title="Jobs"
        subtitle="Reports being generated, reports that failed, and reports on template content."
        actions={
          <>
            <Button
              variant="primary"
              busy={regenerateAll.isPending}
              disabled={readOnly || aiOff || restartable === 0}
              onClick={onRegenerateAll}
              title={aiOff ? "AI generation is not configured on this server" : undefined}
            >
              <SparklesIcon size="sm" />
              Regenerate all{restartable ? ` (${restartable})` : ""}
            </Button>
          </>
        }
      />

      <div className="page-messages" aria-live="polite">
        {success ? <Alert tone="success">{success}</Alert> : null}
        {actionError ? <Alert tone="error">{actionError}</Alert> : null}
        {aiOff ? (
          <Alert tone="info">
            AI generation is not configured on this server: new reports get template content, and regenerating is off.
          </Alert>
        ) : null}
        {readOnly ? <Alert tone="info">You are viewing as another user: this view is read-only.</Alert> : null}
      </div>

      {data ? (
        <div className="toolbar">
          <Segmented
            label="Filter jobs"
            variant="strong"
            value={filter}
            onChange={setFilter}
            options={(["all", ...JOB_KINDS] as Filter[]).map((f) => ({
              value: f,
              label: (
                <>
                  {f === "all" ? "All" : JOB_KIND_LABEL[f]}
                  <span className="filter-count">{f === "all" ? Object.values(data.counts).reduce((a, b) => a + b, 0) : data.counts[f]}</span>
                </>
              ),
            }))}
          />
        </div>
      ) : null}

      {jobs.isPending ? (
        <div className="loading-screen" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading jobs…</span>
        </div>
      ) : jobs.isError && !data ? (
        <RetryAlert message={`Failed to load jobs: ${errorMessage(jobs.error)}`} onRetry={() => void jobs.refetch()} />
      ) : shown.length === 0 ? (
        <Placeholder className="empty-state" icon={CheckCircleIcon} title={filter === "all" ? "No jobs" : `No reports: ${JOB_KIND_LABEL[filter as JobKind].toLowerCase()}`}>
          <p className="placeholder-text">
            {filter === "all"
              ? "Every report is generated with AI content: nothing is queued, generating, failed or on template content."
              : "Nothing in this group right now."}
          </p>
        </Placeholder>
      ) : (
        <div className="card users-table-wrap">
          <table className="users-table">
            <TableHead
              columns={["Prospect", { name: "Status", className: "col-company" }, { name: "Attempts", className: "col-created" }, "Note", ACTIONS_COLUMN]}
            />
            <tbody>
              {shown.map((job) => (
                <tr key={job.id}>
                  <td className="cell-user" data-label="Prospect">
                    <div className="company-cell">
                      <div className="company-name">
                        <Link to={`/admin/reports/${job.id}`}>{job.prospect.name}</Link>
                      </div>
                      <div className="muted">Created {formatCreated(job.created_at)}</div>
                    </div>
                  </td>
                  <td data-label="Status">
                    <ReportStatusBadge status={job.status} source={job.source} />
                  </td>
                  <td data-label="Attempts" className="cell-created">
                    {job.attempts} / {job.max_attempts}
                  </td>
                  <td data-label="Note">
                    <span className="muted">{jobNote(job) ?? "—"}</span>
                  </td>
                  <td data-label="Actions" className="col-actions">
                    <div className="row-actions">
                      {canRegenerate(job.kind) ? (
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={readOnly || aiOff}
                          busy={regenerate.isPending && regenerate.variables === job.id}
                          onClick={() => onRegenerate(job)}
                        >
                          Regenerate
                        </Button>
                      ) : (
                        <span className="muted">In progress</span>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data?.truncated ? <p className="muted list-foot">Showing the first {data.jobs.length} jobs.</p> : null}
        </div>
      )}
    </>
  );
}
