// /admin/report-generator: the Prospects screen (spec §2): count, paste import, search, cards, tag, delete, CSV.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { splitPaste } from "../../worker/domain/admin-api";
import {
  formatPartialSuccess,
  formatRowError,
  formatSuccess,
  NOT_SIGNED_IN,
  parseProspectPaste,
  prospectCountTitle,
} from "../../worker/domain/prospect-import";
import { AdminAccessRequired } from "../components/admin-access-required";
import { DownloadIcon, InboxIcon, PlusIcon } from "../components/icons";
import { Alert, RetryAlert } from "../components/alert";
import { Button, buttonClass } from "../components/button";
import { Link } from "react-router";
import { ProspectCard } from "../components/prospect-card";
import { ProspectDeleteDialog } from "../components/prospect-delete-dialog";
import { ProspectImportForm } from "../components/prospect-import-form";
import { SearchField } from "../components/search-field";
import { GenerateAllReportsButton, isUngenerated, useLiveReportStatuses } from "../components/report-status";
import {
  deleteProspect,
  downloadText,
  exportProspectsCsv,
  importProspects,
  listProspects,
  updateProspectTag,
  type ProspectDto,
} from "../lib/admin-api";
import { ApiError } from "../lib/api";
import { useDebounced, useTimedMessage } from "../lib/use-timed-message";
import { useViewAs } from "../lib/view-as";
import "../admin.css";
import { Placeholder } from "../components/placeholder";

type ListState = {
  status: "loading" | "ready" | "error" | "forbidden";
  items: ProspectDto[];
  total: number;
  all: number;
  nextCursor: string | null;
  loadingMore: boolean;
  error: string | null;
};

type ImportReport = {
  created: number;
  rowErrors: { row: number; message: string }[];
  duplicates: { row: number; name: string }[];
  failure: string | null;
};

/** Row messages listed under a partial success; the rest are counted. */
const LISTED_ROWS = 20;

/** Next page appended; a row already shown (the list moved under us) is not shown twice. */
function appendNew(items: ProspectDto[], more: ProspectDto[]): ProspectDto[] {
  const seen = new Set(items.map((p) => p.id));
  return [...items, ...more.filter((p) => !seen.has(p.id))];
}

const errorMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : "Unknown error");

export default function ProspectsPage() {
  const viewAs = useViewAs();
  const readOnly = Boolean(viewAs);

  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [list, setList] = useState<ListState>({
    status: "loading",
    items: [],
    total: 0,
    all: 0,
    nextCursor: null,
    loadingMore: false,
    error: null,
  });
  const [reloadKey, setReloadKey] = useState(0);
  // Report generation (issue 4): live statuses for the listed reports, and "Generate all reports".
  const listedReports = useMemo(
    () => list.items.flatMap((p) => (p.report ? [{ id: p.report.id, status: p.report.status }] : [])),
    [list.items],
  );
  const liveStatuses = useLiveReportStatuses(listedReports);
  const withLiveStatus = (p: ProspectDto): ProspectDto => {
    const live = p.report ? liveStatuses.get(p.report.id) : undefined;
    return live && p.report ? { ...p, report: { ...p.report, status: live.status, content_generated: live.content_generated } } : p;
  };
  const anyUngenerated = list.items.some((p) => isUngenerated(withLiveStatus(p).report?.status));

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
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState(false);

  // The first page, again whenever the search settles or a change asks for it.
  useEffect(() => {
    const controller = new AbortController();
    setList((s) => ({ ...s, status: s.status === "ready" ? "ready" : "loading", error: null }));
    listProspects({ q, signal: controller.signal })
      .then((res) =>
        setList({
          status: "ready",
          items: res.prospects,
          total: res.total,
          all: res.all,
          nextCursor: res.nextCursor,
          loadingMore: false,
          error: null,
        }),
      )
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.code === "admin_required") {
          setList((s) => ({ ...s, status: "forbidden" }));
          return;
        }
        setList((s) => ({ ...s, status: "error", error: `Failed to load prospects: ${errorMessage(err)}` }));
      });
    return () => controller.abort();
  }, [q, reloadKey]);

  const cursorRef = useRef<string | null>(null);
  cursorRef.current = list.nextCursor;
  const loadingMore = useRef(false);
  const loadMore = useCallback(() => {
    const cursor = cursorRef.current;
    if (!cursor || loadingMore.current) return;
    loadingMore.current = true;
    setList((s) => ({ ...s, loadingMore: true, error: null }));
    listProspects({ q, cursor })
      .then((res) =>
        setList((cur) =>
          cur.nextCursor === cursor
            ? {
                ...cur,
                items: appendNew(cur.items, res.prospects),
                nextCursor: res.nextCursor,
                total: res.total,
                all: res.all,
                loadingMore: false,
              }
            : { ...cur, loadingMore: false },
        ),
      )
      .catch((err: unknown) =>
        setList((cur) => ({ ...cur, loadingMore: false, error: `Failed to load prospects: ${errorMessage(err)}` })),
      )
      .finally(() => {
        loadingMore.current = false;
      });
  }, [q]);

  // Infinite scroll: the sentinel below the grid asks for the next page as it comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !list.nextCursor || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMore();
    }, { rootMargin: "400px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [list.nextCursor, loadMore]);

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
    const result: ImportReport = { created: 0, rowErrors: [], duplicates: [], failure: null };
    let done = 0;
    setProgress({ i: 1, n });
    for (const chunk of chunks) {
      try {
        const res = await importProspects({ text: chunk.text, startRow: chunk.startRow, allowDuplicates });
        result.created += res.created.length;
        result.rowErrors.push(...res.errors);
        result.duplicates.push(...res.duplicates);
      } catch (err) {
        result.failure =
          err instanceof ApiError && err.status === 401 ? NOT_SIGNED_IN : `Failed to create prospects: ${errorMessage(err)}`;
        break;
      }
      done += chunk.rows;
      setProgress({ i: Math.min(done + 1, n), n });
    }
    setProgress(null);
    if (result.created > 0) setReloadKey((k) => k + 1);

    const clean = !result.failure && result.rowErrors.length === 0 && result.duplicates.length === 0;
    if (clean) {
      showSuccess(formatSuccess(result.created));
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

  async function changeTag(prospect: ProspectDto, tag: string) {
    if (!tag || tag === prospect.tag) return;
    setActionError(null);
    const previous = prospect.tag;
    const patch = (value: string | null) =>
      setList((s) => ({ ...s, items: s.items.map((p) => (p.id === prospect.id ? { ...p, tag: value } : p)) }));
    patch(tag);
    setSavingIds((s) => new Set(s).add(prospect.id));
    try {
      await updateProspectTag(prospect.id, tag);
      showSuccess(`Prospect tag updated to "${tag}"`);
    } catch (err) {
      patch(previous);
      setActionError(`Failed to update tag: ${errorMessage(err)}`);
    } finally {
      setSavingIds((s) => {
        const next = new Set(s);
        next.delete(prospect.id);
        return next;
      });
    }
  }

  async function confirmDelete() {
    if (!deleteTarget) return;
    setDeleting(true);
    setActionError(null);
    try {
      await deleteProspect(deleteTarget.id);
      const id = deleteTarget.id;
      setList((s) => ({
        ...s,
        items: s.items.filter((p) => p.id !== id),
        total: Math.max(0, s.total - 1),
        all: Math.max(0, s.all - 1),
      }));
      showSuccess("Prospect deleted successfully");
      setDeleteTarget(null);
    } catch (err) {
      setActionError(`Failed to delete prospect: ${errorMessage(err)}`);
      setDeleteTarget(null);
    } finally {
      setDeleting(false);
    }
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

  if (list.status === "forbidden") {
    return (
      <>
        <title>Prospects · Porchlight</title>
        <AdminAccessRequired />
      </>
    );
  }

  const headerLabel = !formOpen ? "New Prospect" : text === "" ? "Hide Form" : "Create Prospect";
  const importing = progress !== null;
  const searching = q !== "";

  return (
    <>
      <title>Prospects · Porchlight</title>
      <header className="page-header prospects-header">
        <div>
          <p className="page-eyebrow">Admin · Prospects</p>
          <h1 className="page-title" aria-live="polite">
            {list.status === "ready" ? prospectCountTitle(list.all) : "Prospects"}
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
        <Button
          variant="secondary"
          className="export-button"
          aria-label="Export CSV"
          title="Export the current list as CSV"
          onClick={() => void exportCsv()}
          busy={exporting}
          disabled={list.status !== "ready" || list.total === 0}
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
              setReloadKey((k) => k + 1);
            }}
            onError={setActionError}
          />
        ) : null}
      </div>

      {list.status === "ready" && searching && list.total > 0 ? (
        <p className="result-count" aria-live="polite">
          {list.total.toLocaleString("en-US")} {list.total === 1 ? "match" : "matches"} for "{q}"
        </p>
      ) : null}

      {list.status === "loading" ? (
        <div className="prospect-grid" aria-busy="true" aria-label="Loading prospects">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="card prospect-card skeleton" />
          ))}
        </div>
      ) : list.status === "error" ? (
        <RetryAlert message={list.error} onRetry={() => setReloadKey((k) => k + 1)} />
      ) : list.items.length === 0 ? (
        <Placeholder className="empty-state" icon={InboxIcon} title="No prospects found">
          <p className="placeholder-text">
            {searching ? `No results found for "${q}". Try a different search term.` : "No prospects have been created yet."}
          </p>
          <Button variant="primary" onClick={openForm} disabled={readOnly}>
            <PlusIcon size="sm" />
            Create Your First Prospect
          </Button>
        </Placeholder>
      ) : (
        <>
          <div className="prospect-grid">
            {list.items.map((p) => (
              <ProspectCard
                key={p.id}
                prospect={withLiveStatus(p)}
                saving={savingIds.has(p.id)}
                readOnly={readOnly}
                onTagChange={(prospect, tag) => void changeTag(prospect, tag)}
                onDelete={setDeleteTarget}
              />
            ))}
          </div>
          {list.error ? <Alert tone="error">{list.error}</Alert> : null}
          <div ref={sentinel} className="list-foot">
            <p className="muted">
              Showing {list.items.length.toLocaleString("en-US")} of {list.total.toLocaleString("en-US")}
            </p>
            {list.nextCursor ? (
              <Button variant="secondary" onClick={loadMore} busy={list.loadingMore}>
                Load more
              </Button>
            ) : null}
          </div>
        </>
      )}

      {deleteTarget ? (
        <ProspectDeleteDialog
          name={deleteTarget.name}
          busy={deleting}
          onCancel={() => setDeleteTarget(null)}
          onConfirm={() => void confirmDelete()}
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
