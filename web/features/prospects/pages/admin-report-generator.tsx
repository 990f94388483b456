// /admin/report-generator: the Prospects screen (spec §2): count, paste import, search, cards, tag, delete, CSV.
import { keepPreviousData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { splitPaste } from "../../../../worker/features/accounts/rules/admin-api";
import {
  formatPartialSuccess,
  formatRowError,
  formatSuccess,
  NOT_SIGNED_IN,
  HEADER_SKIPPED,
  parseProspectPaste,
  prospectCountTitle,
} from "../../../../worker/features/prospects/rules/import";
import { AdminAccessRequired } from "../../../app/admin-access-required";
import { DownloadIcon, InboxIcon, PlusIcon } from "../../../design/icons";
import { Alert, RetryAlert } from "../../../design/alert";
import { Link } from "react-router";
import { Button, buttonClass } from "../../../design/button";
import { ProspectCard, ProspectSortSelect } from "../prospect-card";
import type { ProspectSort } from "../../../../worker/features/accounts/rules/admin-api";
import { ProspectDeleteDialog } from "../prospect-delete-dialog";
import { ProspectImportForm } from "../prospect-import-form";
import { SearchField } from "../../../design/search-field";
import { GenerateAllReportsButton } from "../../reports";
import { isUngenerated } from "../../../../worker/features/reports/rules/status";
import type { ProspectDto } from "../../../../worker/features/accounts/rules/admin-api";
import type { Category } from "../../../../worker/domain/categories";
import { downloadText } from "../../../lib/download";
import { ApiError } from "../../../lib/api";
import {
  exportProspectsCsv,
  flattenPages,
  importProspects,
  prospectListQuery,
  useDeleteProspect,
  useUpdateProspectTag,
} from "../queries";
import { refreshAfterReportsChange, reportKeys, useLiveReportStatuses } from "../../reports";
import { useDebounced, useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import "../prospects.css";
import { Placeholder } from "../../../design/placeholder";
import { PageTitle } from "../../brand";

type ImportReport = {
  created: number;
  rowErrors: { row: number; message: string }[];
  duplicates: { row: number; name: string }[];
  failure: string | null;
  /** The paste's first row was column titles and was not imported. */
  headerSkipped: boolean;
};

/** Row messages listed under a partial success; the rest are counted. */
const LISTED_ROWS = 20;

const errorMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : "Unknown error");

export default function ProspectsPage() {
  const viewAs = useViewAs();
  const readOnly = Boolean(viewAs);

  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [sort, setSort] = useState<ProspectSort>("newest");
  const client = useQueryClient();
  // The list for the settled search; the previous search's cards stay while the next one loads.
  const listQuery = useInfiniteQuery({ ...prospectListQuery(q, sort), placeholderData: keepPreviousData });
  const { items, total, all } = useMemo(() => flattenPages(listQuery.data), [listQuery.data]);
  const forbidden = listQuery.error instanceof ApiError && listQuery.error.code === "admin_required";
  const listError = listQuery.error ? `Failed to load prospects: ${errorMessage(listQuery.error)}` : null;
  const status = forbidden ? "forbidden" : listQuery.data ? "ready" : listQuery.isError ? "error" : "loading";
  const reload = () => void refreshAfterReportsChange(client);
  // Report generation (issue 4): live statuses for the listed reports, and "Generate all reports".
  const listedReports = useMemo(
    () =>
      items.flatMap((p) =>
        p.report ? [{ id: p.report.id, status: p.report.status, content_generated: p.report.content_generated }] : [],
      ),
    [items],
  );
  const liveStatuses = useLiveReportStatuses(listedReports);
  const withLiveStatus = (p: ProspectDto): ProspectDto => {
    const live = p.report ? liveStatuses.get(p.report.id) : undefined;
    return live && p.report ? { ...p, report: { ...p.report, status: live.status, content_generated: live.content_generated } } : p;
  };
  const anyUngenerated = items.some((p) => isUngenerated(withLiveStatus(p).report?.status));

  const [formOpen, setFormOpen] = useState(false);
  const [text, setText] = useState("");
  const [allowDuplicates, setAllowDuplicates] = useState(false);
  const [progress, setProgress] = useState<{ i: number; n: number } | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  const [success, showSuccess] = useTimedMessage();
  const [actionError, setActionError] = useState<string | null>(null);
  const [savingIds, setSavingIds] = useState<ReadonlySet<string>>(new Set());
  const [deleteTarget, setDeleteTarget] = useState<ProspectDto | null>(null);
  const [exporting, setExporting] = useState(false);
  const updateTag = useUpdateProspectTag();
  const deleteMutation = useDeleteProspect();

  const loadMore = () => {
    if (listQuery.hasNextPage && !listQuery.isFetchingNextPage) void listQuery.fetchNextPage();
  };
  const latestLoadMore = useRef(loadMore);
  latestLoadMore.current = loadMore;

  // Infinite scroll: the sentinel below the grid asks for the next page as it comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !listQuery.hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) latestLoadMore.current();
    }, { rootMargin: "400px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [listQuery.hasNextPage]);

  function openForm() {
    setFormOpen(true);
    setReport(null);
    setFormError(null);
    requestAnimationFrame(() => textarea.current?.focus());
  }

  async function runImport() {
    if (progress) return;
    setReport(null);
    setFormError(null);
    const parsed = parseProspectPaste(text);
    if (!parsed.ok) {
      setFormError(parsed.error);
      return;
    }
    const chunks = splitPaste(text);
    const n = parsed.total;
    const result: ImportReport = { created: 0, rowErrors: [], duplicates: [], failure: null, headerSkipped: false };
    let done = 0;
    setProgress({ i: 1, n });
    for (const chunk of chunks) {
      try {
        const res = await importProspects({ text: chunk.text, startRow: chunk.startRow, allowDuplicates });
        result.created += res.created.length;
        result.rowErrors.push(...res.errors);
        result.duplicates.push(...res.duplicates);
        if (res.headerSkipped) result.headerSkipped = true;
      } catch (err) {
        result.failure =
          err instanceof ApiError && err.status === 401 ? NOT_SIGNED_IN : `Failed to create prospects: ${errorMessage(err)}`;
        break;
      }
      done += chunk.rows;
      setProgress({ i: Math.min(done + 1, n), n });
    }
    setProgress(null);
    if (result.created > 0) reload();

    const clean = !result.failure && result.rowErrors.length === 0 && result.duplicates.length === 0;
    if (clean) {
      showSuccess(result.headerSkipped ? `${formatSuccess(result.created)} ${HEADER_SKIPPED}` : formatSuccess(result.created));
      setText("");
      setFormOpen(false);
    } else {
      setReport(result);
    }
  }

  function onHeaderButton() {
    if (!formOpen) return openForm();
    if (text === "") {
      setFormOpen(false);
      setFormError(null);
      return;
    }
    void runImport();
  }

  function changeTag(prospect: ProspectDto, tag: string) {
    if (!tag || tag === prospect.tag) return;
    setActionError(null);
    const saving = (on: boolean) =>
      setSavingIds((current) => {
        const next = new Set(current);
        if (on) next.add(prospect.id);
        else next.delete(prospect.id);
        return next;
      });
    saving(true);
    updateTag.mutate(
      { id: prospect.id, tag: tag as Category },
      {
        onSuccess: () => showSuccess(`Prospect tag updated to "${tag}"`),
        onError: (err) => setActionError(`Failed to update tag: ${errorMessage(err)}`),
        onSettled: () => saving(false),
      },
    );
  }

  function confirmDelete() {
    if (!deleteTarget) return;
    setActionError(null);
    deleteMutation.mutate(deleteTarget.id, {
      onSuccess: () => {
        showSuccess("Prospect deleted successfully");
        // The deleted report may have been the one the sidebar's AI Chat points at.
        void client.invalidateQueries({ queryKey: reportKeys.newest });
      },
      onError: (err) => setActionError(`Failed to delete prospect: ${errorMessage(err)}`),
      onSettled: () => setDeleteTarget(null),
    });
  }

  async function exportCsv() {
    setExporting(true);
    setActionError(null);
    try {
      const csv = await exportProspectsCsv(q);
      const date = new Date().toISOString().slice(0, 10);
      downloadText(`\uFEFF${csv}`, q ? `prospects-${date}-search.csv` : `prospects-${date}.csv`);
    } catch (err) {
      setActionError(`Failed to export prospects: ${errorMessage(err)}`);
    } finally {
      setExporting(false);
    }
  }

  if (status === "forbidden") {
    return (
      <>
        <PageTitle>Prospects</PageTitle>
        <AdminAccessRequired />
      </>
    );
  }

  const headerLabel = !formOpen ? "New Prospect" : text === "" ? "Hide Form" : "Create Prospect";
  const importing = progress !== null;
  const searching = q !== "";

  return (
    <>
      <PageTitle>Prospects</PageTitle>
      <header className="page-header prospects-header">
        <div>
          <p className="page-eyebrow">Admin · Prospects</p>
          <h1 className="page-title" aria-live="polite">
            {status === "ready" ? prospectCountTitle(all) : "Prospects"}
          </h1>
          <p className="page-subtitle">Paste rows from a spreadsheet to create prospects, each with its SEO report.</p>
        </div>
        <Button
          variant="primary"
          onClick={onHeaderButton}
          busy={importing}
          disabled={readOnly}
          aria-expanded={formOpen}
          aria-controls="prospect-import"
        >
          {headerLabel === "New Prospect" ? <PlusIcon size="sm" /> : null}
          {headerLabel}
        </Button>
      </header>

      {readOnly ? (
        <div className="page-notice">
          <Alert tone="info">
            You are viewing as {viewAs?.viewingUserEmail || "Unknown Email"}: this view is read-only.
          </Alert>
        </div>
      ) : null}

      <div className="page-messages" aria-live="polite">
        {success ? <Alert tone="success">{success}</Alert> : null}
        {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      </div>

      {formOpen ? (
        <section id="prospect-import" className="import-section">
          {formError ? <Alert tone="error">{formError}</Alert> : null}
          <ProspectImportForm
            text={text}
            onTextChange={(t) => {
              setText(t);
              setFormError(null);
            }}
            allowDuplicates={allowDuplicates}
            onAllowDuplicatesChange={setAllowDuplicates}
            busy={importing}
            progress={progress}
            textareaRef={textarea}
            onSubmit={() => void runImport()}
          />
        </section>
      ) : null}

      {report ? <ImportReportView report={report} onDismiss={() => setReport(null)} /> : null}

      <div className="toolbar">
        <SearchField placeholder="Search prospects..." label="Search prospects" value={search} onChange={setSearch} />
        <ProspectSortSelect value={sort} onChange={setSort} />
        <Button
          variant="secondary"
          className="export-button"
          aria-label="Export CSV"
          title="Export the current list as CSV"
          onClick={() => void exportCsv()}
          busy={exporting}
          disabled={status !== "ready" || total === 0}
        >
          <DownloadIcon size="sm" />
          <span className="btn-label">Export CSV</span>
        </Button>
        <Link className={buttonClass("ghost")} to="/admin/report-generator/jobs" title="Reports queued, generating, failed or on template content">
          Jobs
        </Link>
        {anyUngenerated && !readOnly ? (
          <GenerateAllReportsButton
            onQueued={(n) => {
              showSuccess(`Queued ${n} ${n === 1 ? "report" : "reports"} for generation`);
            }}
            onError={setActionError}
          />
        ) : null}
      </div>

      {status === "ready" && searching && total > 0 ? (
        <p className="result-count" aria-live="polite">
          {total.toLocaleString("en-US")} {total === 1 ? "match" : "matches"} for "{q}"
        </p>
      ) : null}

      {status === "loading" ? (
        <div className="prospect-grid" aria-busy="true" aria-label="Loading prospects">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="card prospect-card skeleton" />
          ))}
        </div>
      ) : status === "error" ? (
        <RetryAlert message={listError} onRetry={() => void listQuery.refetch()} />
      ) : items.length === 0 ? (
        <Placeholder className="empty-state" icon={InboxIcon} title="No prospects found">
          <p className="placeholder-text">
            {searching ? `No results found for "${q}". Try a different search term.` : "No prospects have been created yet."}
          </p>
          {searching && all > 0 ? (
            // Prospects exist, the search just matched none of them: the way out is clearing it.
            <Button variant="secondary" onClick={() => setSearch("")}>
              Clear search
            </Button>
          ) : (
            <Button variant="primary" onClick={openForm} disabled={readOnly}>
              <PlusIcon size="sm" />
              Create Your First Prospect
            </Button>
          )}
        </Placeholder>
      ) : (
        <>
          <div className="prospect-grid">
            {items.map((p) => (
              <ProspectCard
                key={p.id}
                prospect={withLiveStatus(p)}
                saving={savingIds.has(p.id)}
                readOnly={readOnly}
                onTagChange={changeTag}
                onDelete={setDeleteTarget}
              />
            ))}
          </div>
          {listError ? <Alert tone="error">{listError}</Alert> : null}
          <div ref={sentinel} className="list-foot">
            <p className="muted">
              Showing {items.length.toLocaleString("en-US")} of {total.toLocaleString("en-US")}
            </p>
            {listQuery.hasNextPage ? (
              <Button variant="secondary" onClick={loadMore} busy={listQuery.isFetchingNextPage}>
                Load more
              </Button>
            ) : null}
          </div>
        </>
      )}

      {deleteTarget ? (
        <ProspectDeleteDialog
          name={deleteTarget.name}
          busy={deleteMutation.isPending}
          onCancel={() => setDeleteTarget(null)}
          onConfirm={confirmDelete}
        />
      ) : null}
    </>
  );
}

function ImportReportView({ report, onDismiss }: { report: ImportReport; onDismiss: () => void }) {
  const failed = report.rowErrors.length;
  return (
    <div className="import-report">
      {report.failure ? (
        <Alert tone="error">
          <p>{report.failure}</p>
          {report.created > 0 ? <p>{formatSuccess(report.created)}</p> : null}
        </Alert>
      ) : null}
      {failed > 0 ? (
        <Alert tone="warning" title={formatPartialSuccess(report.created, failed)}>
          <ul className="row-errors">
            {report.rowErrors.slice(0, LISTED_ROWS).map((e) => (
              <li key={`${e.row}-${e.message}`}>{formatRowError(e.row, e.message)}</li>
            ))}
            {failed > LISTED_ROWS ? <li>and {failed - LISTED_ROWS} more</li> : null}
          </ul>
        </Alert>
      ) : !report.failure ? (
        <Alert tone="success">{formatSuccess(report.created)}</Alert>
      ) : null}
      {report.headerSkipped ? <Alert tone="info">{HEADER_SKIPPED}</Alert> : null}
      {report.duplicates.length > 0 ? (
        <Alert
          tone="info"
          title={`Skipped ${report.duplicates.length} ${report.duplicates.length === 1 ? "duplicate" : "duplicates"}`}
        >
          <p>
            These rows match an existing prospect (same name and phone, or same name and location). Tick "Import duplicates
            anyway" to create them.
          </p>
          <ul className="row-errors">
            {report.duplicates.slice(0, LISTED_ROWS).map((d) => (
              <li key={d.row}>{formatRowError(d.row, d.name)}</li>
            ))}
            {report.duplicates.length > LISTED_ROWS ? <li>and {report.duplicates.length - LISTED_ROWS} more</li> : null}
          </ul>
        </Alert>
      ) : null}
      <p>
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </p>
    </div>
  );
}
